import { describe, expectTypeOf, it } from "vitest";
import type { ElicitedContent } from "../client-requests/elicitation-types";
import type { PromptArgs } from "../prompts/types";
import type { UriTemplateMatchValue, UriTemplateMatchVariables } from "../uri-template/decode";
import type { TemplateVariableNames, TemplateVariables } from "./types";

// Type-level tests: `tsc` checks them; at run time they only assert that they ran.
describe("feature types", () => {
  it("names the variables of a literal template, through every operator and modifier", () => {
    expectTypeOf<TemplateVariableNames<"repo://{owner}/{repo}/{+path}{?ref,depth:3}{#frag}{/seg*}">>().toEqualTypeOf<
      "owner" | "repo" | "path" | "ref" | "depth" | "frag" | "seg"
    >();
    expectTypeOf<TemplateVariables<"users/{id}">>().toEqualTypeOf<{ readonly id?: UriTemplateMatchValue }>();
    expectTypeOf<TemplateVariables<string>>().toEqualTypeOf<UriTemplateMatchVariables>();
  });

  it("types prompt arguments: required strings, optional ones possibly absent", () => {
    type Args = PromptArgs<readonly [{ readonly name: "diff"; readonly required: true }, { readonly name: "style" }]>;
    expectTypeOf<Args["diff"]>().toEqualTypeOf<string>();
    expectTypeOf<Args>().toHaveProperty("style");
    expectTypeOf<Args["style"]>().toEqualTypeOf<string | undefined>();
  });

  it("types elicited content from an as-const schema", () => {
    const schema = {
      type: "object",
      properties: {
        country: { type: "string", oneOf: [{ const: "fr", title: "France" }, { const: "de", title: "Germany" }] },
        size: { type: "string", enum: ["s", "m"] },
        express: { type: "boolean" },
        count: { type: "integer" },
        tags: { type: "array", items: { type: "string", enum: ["a", "b"] } },
        note: { type: "string" },
      },
      required: ["country", "count"],
    } as const;
    type Content = ElicitedContent<typeof schema>;
    expectTypeOf<Content["country"]>().toEqualTypeOf<"fr" | "de">();
    expectTypeOf<Content["count"]>().toEqualTypeOf<number>();
    expectTypeOf<Content["size"]>().toEqualTypeOf<"s" | "m" | undefined>();
    expectTypeOf<Content["express"]>().toEqualTypeOf<boolean | undefined>();
    expectTypeOf<Content["tags"]>().toEqualTypeOf<("a" | "b")[] | undefined>();
    expectTypeOf<Content["note"]>().toEqualTypeOf<string | undefined>();
  });
});
