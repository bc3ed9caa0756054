import { describe, expect, it } from "vitest";
import { childEnv, inheritedNames } from "./child-env";

const source = { PATH: "/bin", HOME: "/home/u", AWS_SECRET_ACCESS_KEY: "s3cr3t", SHELL: "() { evil; }", LANG: "C.UTF-8" };

describe("childEnv", () => {
  it("inherits only the safe set, skips exported shell functions, and adds env on top", () => {
    const env = childEnv({ API_KEY: "for-the-server", LANG: undefined }, false, source);
    expect(env).toEqual({ PATH: "/bin", HOME: "/home/u", API_KEY: "for-the-server" });
  });

  it("inherits everything when asked", () => {
    const { SHELL: _function, ...rest } = source;
    expect(childEnv({ HOME: "/other" }, true, source)).toEqual({ ...rest, HOME: "/other" });
    expect(childEnv(undefined, true, source)).not.toHaveProperty("SHELL");
  });

  it("has a Windows set with what programs need there", () => {
    expect(inheritedNames("win32")).toEqual(expect.arrayContaining(["PATH", "SYSTEMROOT", "USERPROFILE", "TEMP"]));
    expect(inheritedNames("linux")).toEqual(expect.arrayContaining(["PATH", "HOME"]));
  });
});
