/** Test fixture (not exported): fast-check arbitraries shared by the gateway and rewriting properties. */
import fc from "fast-check";

const label = fc.stringMatching(/^[a-z0-9](?:[a-z0-9-]{0,10}[a-z0-9])?$/);

/** Any gateway name: one or more lowercase DNS labels. */
export const gatewayName = fc.array(label, { minLength: 1, maxLength: 4 }).map((labels) => labels.join("."));

/** Any child name. */
export const childName = fc.stringMatching(/^[A-Za-z0-9_~-][A-Za-z0-9._~-]{0,40}$/);

/** Any ui:// URI: the scheme in any case, then any well-formed Unicode text (paths, queries, fragments, percent signs). */
export const uiUri = fc
  .tuple(fc.constantFrom("ui://", "UI://", "Ui://"), fc.string({ unit: "grapheme", minLength: 1, maxLength: 60 }))
  .map(([scheme, rest]) => scheme + rest);

/** Any URI a child may use: a view's, or another scheme's (passed through). */
export const anyUri = fc.oneof(uiUri, fc.string({ maxLength: 30 }).map((s) => `file:///${s}`), fc.string({ maxLength: 20 }));
