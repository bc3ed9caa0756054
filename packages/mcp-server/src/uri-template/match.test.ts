import { describe, expect, it } from "vitest";
import { retainedScratchPositions } from "./accept-table";
import { createUriTemplate } from "./template";

const match = (template: string, uri: string, optional?: readonly string[]) => createUriTemplate(template, optional === undefined ? undefined : { optional }).match(uri);
const plain = (value: unknown) => JSON.parse(JSON.stringify(value)) as unknown;

describe("matching a URI against a template", () => {
  it.each([
    ["users/{id}", "users/42", { id: "42" }],
    ["users/{id}", "users/Hello%20World%21", { id: "Hello World!" }],
    ["file:///{+path}", "file:///a/b/c.txt", { path: "a/b/c.txt" }],
    ["{+base}index", "http://example.com/home/index", { base: "http://example.com/home/" }],
    ["{x,y}", "1024,768", { x: "1024", y: "768" }],
    ["{list}", "red,green,blue", { list: ["red", "green", "blue"] }],
    ["{+path}/here", "/foo/bar/here", { path: "/foo/bar" }],
    ["{#path,x}/here", "#/foo/bar,1024/here", { path: "/foo/bar", x: "1024" }],
    ["www{.dom*}", "www.example.com", { dom: ["example", "com"] }],
    ["X{.var}", "X.value", { var: "value" }],
    ["{/who,dub}", "/fred/me%2Ftoo", { who: "fred", dub: "me/too" }],
    ["{/list*}", "/red/green/blue", { list: ["red", "green", "blue"] }],
    ["{/list*,path:4}", "/red/green/blue/%2Ffoo", { list: ["red", "green", "blue"], path: "/foo" }],
    ["{/keys*}", "/semi=%3B/dot=./comma=%2C", { keys: { semi: ";", dot: ".", comma: "," } }],

    ["{;list*}", ";list=red;list=green;list=blue", { list: ["red", "green", "blue"] }],

    ["{?list}", "?list=red,green,blue", { list: ["red", "green", "blue"] }],
    ["{?keys*}", "?semi=%3B&dot=.&comma=%2C", { keys: { semi: ";", dot: ".", comma: "," } }],
    ["?fixed=yes{&x}", "?fixed=yes&x=1024", { x: "1024" }],
    ["{keys*}", "semi=%3B,dot=.,comma=%2C", { keys: { semi: ";", dot: ".", comma: "," } }],
  ])("%s matches %s", (template, uri, expected) => {
    expect(plain(match(template, uri))).toEqual(expected);
  });

  it("gives an optional variable an empty value, or leaves it out when undefined", () => {
    expect(plain(match("{;v,empty,who}", ";v=6;empty;who=fred", ["empty"]))).toEqual({ v: "6", empty: "", who: "fred" });
    expect(plain(match("{?x,y,empty}", "?x=1024&y=768&empty=", ["empty"]))).toEqual({ x: "1024", y: "768", empty: "" });
    expect(plain(match("search{?q,limit}", "search?q=cats", ["limit"]))).toEqual({ q: "cats" });
    expect(plain(match("search{?q,limit}", "search", ["q", "limit"]))).toEqual({});
    expect(plain(match("users/{id}", "users/", ["id"]))).toEqual({});
    expect(plain(match("{/a,b}", "/x", ["b"]))).toEqual({ a: "x" });
  });

  it("does not match a URI that leaves a variable undefined or empty, unless the template makes it optional", () => {
    expect(match("test://template/{id}/data", "test://template//data")).toBeUndefined();
    expect(plain(match("test://template/{id}/data", "test://template/7/data"))).toEqual({ id: "7" });
    expect(match("users/{id}", "users/")).toBeUndefined();
    expect(match("file:///{+path}", "file:///")).toBeUndefined();
    expect(match("search{?q,limit}", "search?q=cats")).toBeUndefined();
    expect(match("search{?q}", "search?q=")).toBeUndefined();
    expect(match("{;v,empty,who}", ";v=6;empty;who=fred")).toBeUndefined();
    expect(match("{/a,b}", "/x")).toBeUndefined();
    expect(match("x{.ext}", "x")).toBeUndefined();
    expect(match("x{.ext}", "x.")).toBeUndefined();
    expect(match("{x}/{x}", "/")).toBeUndefined();
  });

  it("refuses an optional name that is no variable of the template", () => {
    expect(() => createUriTemplate("users/{id}", { optional: ["ids"] })).toThrow(/optional names "ids", which is no variable of the template \(variables: id\)/);
    expect(() => createUriTemplate("users/{id}", { optional: "id" as never })).toThrow(/optional must be an array/);
    expect(createUriTemplate("users/{id}{?q}", { optional: ["q", "q"] }).optionalVariables).toEqual(["q"]);
  });

  it("accepts query parameters in any order and refuses unknown or repeated ones", () => {
    expect(plain(match("s{?a,b}", "s?b=2&a=1"))).toEqual({ a: "1", b: "2" });
    expect(match("s{?a,b}", "s?a=1&c=3")).toBeUndefined();
    expect(match("s{?a}", "s?a=1&a=2")).toBeUndefined();
  });

  it("lets each expression take the longest span that still matches the rest", () => {
    expect(plain(match("{name}.{ext}", "archive.tar.gz"))).toEqual({ name: "archive.tar", ext: "gz" });
    expect(plain(match("{+a}/{b}/c", "x/y/c/z/c"))).toEqual({ a: "x/y/c", b: "z" });
    expect(plain(match("{+path}{?q}", "a/b?q=1"))).toEqual({ path: "a/b", q: "1" });
    expect(plain(match("{+path}{#frag}", "a/b#top"))).toEqual({ path: "a/b", frag: "top" });
    expect(plain(match("{+path}", "a/b?q=1#top"))).toEqual({ path: "a/b?q=1#top" });
    expect(plain(match("{/path}{?q}", "/a?q=1"))).toEqual({ path: "a", q: "1" });
  });

  it("does not let a U expression swallow reserved characters", () => {
    expect(match("users/{id}", "users/1/posts")).toBeUndefined();
    expect(match("users/{id}", "users/1?x=1")).toBeUndefined();
    expect(match("users/{id}", "users/1#f")).toBeUndefined();
  });

  it("tolerates characters a client forgot to encode", () => {
    expect(plain(match("notes/{title}", "notes/my note é"))).toEqual({ title: "my note é" });
  });

  it("refuses malformed percent-encoding, wrong literals and leftovers", () => {
    expect(match("users/{id}", "users/%zz")).toBeUndefined();
    expect(match("users/{id}", "posts/1")).toBeUndefined();
    expect(match("users/{id}/x", "users/1/y")).toBeUndefined();
    expect(match("{/a,b}", "/x/y/z")).toBeUndefined();
    expect(match("a", "ab")).toBeUndefined();
    expect(plain(match("a", "a"))).toEqual({});
  });

  it("requires a repeated variable to carry the same value", () => {
    expect(plain(match("{x}/{x}", "1/1"))).toEqual({ x: "1" });
    expect(match("{x}/{x}", "1/2")).toBeUndefined();
  });

  it("returns objects without a prototype, so a key cannot pollute one", () => {
    const found = match("{?q*}", "?__proto__=1&constructor=2") as Record<string, Record<string, string>>;
    expect(found.q?.["__proto__"]).toBe("1");
    expect(Object.getPrototypeOf(found)).toBeNull();
    expect(({} as Record<string, unknown>)["1"]).toBeUndefined();
  });

  it("never throws on hostile input", () => {
    const t = createUriTemplate("{a}{b}{+c}{/d*}{?e*}");
    for (const uri of ["", "%", "%%%", "\uD800", "?&&&==", "/".repeat(1000), "{a}", "\u0000"]) {
      expect(() => t.match(uri)).not.toThrow();
    }
    expect(t.match(42 as unknown as string)).toBeUndefined();
  });
});

describe("matching memory", () => {
  it("does not keep a long match's scratch rows after it (module-global rows stay small)", () => {
    const long = "a".repeat(200_000);
    expect(match("{+path}/end", `${long}/end`)).toMatchObject({ path: long });
    expect(retainedScratchPositions()).toBeLessThanOrEqual(4_096);
  });
});
