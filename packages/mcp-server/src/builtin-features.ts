/**
 * The built-in feature modules other than tools, and the server methods they add. The
 * features engineer owns this list: add a factory to `installFeatures` and its methods'
 * types to `FeatureApi` (see CONTRIBUTING-FEATURES.md).
 */
import type { AnyFeature, FeatureHost } from "./feature";

/** Server methods added by the built-in features (e.g. `resource()`, `prompt()`). */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export interface FeatureApi {}

/** Creates the built-in features for one server. */
export function installFeatures(host: FeatureHost): { readonly features: readonly AnyFeature[]; readonly api: FeatureApi } {
  void host;
  return { features: [], api: {} };
}
