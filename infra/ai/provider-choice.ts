/**
 * Which provider answers a call: the choice rule (`auto` = vendor_a, else vendor_b, else llama, else local) and
 * the configuration variables that make each provider available, named when a chosen one is not configured.
 */
import { VendorNotConfiguredError } from './errors';
import type { ProviderChoice, ResolvedProvider, TextVendor } from './completion';

/** The provider is a text vendor (not the in-process model or the offline writer). */
export const isVendor = (p: ResolvedProvider): p is TextVendor => p === 'vendor_a' || p === 'vendor_b';

export const VENDOR_VARIABLES: Record<TextVendor, string[]> = {
  vendor_a: ['VENDOR_A_BASE_URL', 'VENDOR_A_API_KEY', 'VENDOR_A_MODEL'],
  vendor_b: ['VENDOR_B_BASE_URL', 'VENDOR_B_API_KEY', 'VENDOR_B_MODEL'],
};

/** What makes `llama` available: a GGUF model file (the default one is fetched by the project's scripts). */
export const LLAMA_VARIABLES = ['LLAMA_MODEL_PATH'];

/**
 * Provider choice rule (pure): explicit if configured; `auto` = vendor_a, else
 * vendor_b, else llama when its model is present and the call says what the
 * model may write (`wantsModel`: it has a modelPlan), else local.
 */
export function chooseProvider(
  choice: ProviderChoice | undefined,
  configured: Record<TextVendor, boolean> & { llama?: boolean },
  wantsModel = false,
): ResolvedProvider {
  const c = choice ?? 'auto';
  if (c === 'local') return 'local';
  if (c === 'llama') {
    if (!configured.llama) throw new VendorNotConfiguredError('llama', LLAMA_VARIABLES);
    return 'llama';
  }
  if (c === 'auto')
    return configured.vendor_a
      ? 'vendor_a'
      : configured.vendor_b
        ? 'vendor_b'
        : configured.llama && wantsModel
          ? 'llama'
          : 'local';
  if (!configured[c]) throw new VendorNotConfiguredError(c, VENDOR_VARIABLES[c]);
  return c;
}
