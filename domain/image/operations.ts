/**
 * Edit and control operations of the image studio, in one table: what each
 * operation is, which request inputs it uses and requires, and which
 * providers can do it (with the vendor endpoint or model that does it).
 * GET /edit/operations and /control/operations serve this table; POST
 * /edit/process and /control/process validate against it and route by it.
 */
import type { ImageProvider } from './providers';

export const EDIT_OPERATIONS = [
  'remove_background',
  'inpaint',
  'outpaint',
  'search_replace',
  'search_recolor',
  'general_edit',
  'replace_background_and_relight',
] as const;
export type EditOperation = (typeof EDIT_OPERATIONS)[number];

export const CONTROL_OPERATIONS = ['sketch', 'structure', 'style', 'style_transfer'] as const;
export type ControlOperation = (typeof CONTROL_OPERATIONS)[number];

/** The inputs an operation reads (Document 2 "Edit operation metadata" `fields`, plus the control inputs). */
export interface OperationFields {
  prompt: boolean;
  mask: boolean;
  negative_prompt: boolean;
  search_prompt: boolean;
  select_prompt: boolean;
  background: boolean;
  lighting: boolean;
  expansion: boolean;
  style_image: boolean;
  control_strength: boolean;
  fidelity: boolean;
}

export type RequiredInput =
  'prompt' | 'mask' | 'search_prompt' | 'select_prompt' | 'expansion' | 'style_image' | 'background_or_prompt';

export interface OperationSpec {
  label: string;
  description: string;
  fields: OperationFields;
  required: RequiredInput[];
  /** Providers able to do it, in the order `auto` tries them, with the endpoint or model each uses. */
  providers: Partial<Record<ImageProvider, string>>;
}

const F = (on: Partial<OperationFields>): OperationFields => ({
  prompt: false,
  mask: false,
  negative_prompt: false,
  search_prompt: false,
  select_prompt: false,
  background: false,
  lighting: false,
  expansion: false,
  style_image: false,
  control_strength: false,
  fidelity: false,
  ...on,
});

export const EDIT_SPECS: Record<EditOperation, OperationSpec> = {
  remove_background: {
    label: 'Remove background',
    description:
      'Makes the background transparent. Vendors segment the subject; the local provider removes a flat or solid background by colour-distance flood fill from the borders (docs/image-studio.md).',
    fields: F({}),
    required: [],
    providers: { vendor_c: 'remove-background', local: 'flood-fill-v1' },
  },
  inpaint: {
    label: 'Inpaint',
    description: 'Repaints the masked area (white = change) following the prompt.',
    fields: F({ prompt: true, mask: true, negative_prompt: true }),
    required: ['prompt', 'mask'],
    providers: { vendor_c: 'inpaint', vendor_d: 'flux-pro-1.0-fill', vendor_a: 'gpt-image-1' },
  },
  outpaint: {
    label: 'Outpaint',
    description:
      'Extends the canvas by expand_left/right/up/down pixels. Vendors paint new content (guided by the prompt); the local provider extends the edges (mirrored edge pixels, blurred progressively away from the original).',
    fields: F({ prompt: true, negative_prompt: true, expansion: true }),
    required: ['expansion'],
    providers: { vendor_c: 'outpaint', vendor_d: 'flux-pro-1.0-expand', local: 'edge-extend-v1' },
  },
  search_replace: {
    label: 'Search and replace',
    description: 'Finds what search_prompt describes and replaces it with what the prompt describes; no mask needed.',
    fields: F({ prompt: true, negative_prompt: true, search_prompt: true }),
    required: ['prompt', 'search_prompt'],
    providers: { vendor_c: 'search-and-replace' },
  },
  search_recolor: {
    label: 'Search and recolor',
    description: 'Finds what select_prompt describes and recolours it as the prompt says.',
    fields: F({ prompt: true, negative_prompt: true, select_prompt: true }),
    required: ['prompt', 'select_prompt'],
    providers: { vendor_c: 'search-and-recolor' },
  },
  general_edit: {
    label: 'General edit',
    description: 'Changes the image as an instruction prompt says ("make it night", "add a red scarf").',
    fields: F({ prompt: true, mask: true }),
    required: ['prompt'],
    providers: {
      vendor_a: 'gpt-image-1',
      vendor_d: 'flux-kontext-pro',
      vendor_e: 'black-forest-labs/flux-kontext-pro',
    },
  },
  replace_background_and_relight: {
    label: 'Replace background and relight',
    description:
      'Puts the subject on a new background (background_image_base64 or a prompt) and relights it (optional lighting_image_base64).',
    fields: F({ prompt: true, negative_prompt: true, background: true, lighting: true }),
    required: ['background_or_prompt'],
    providers: { vendor_c: 'replace-background-and-relight' },
  },
};

export const CONTROL_SPECS: Record<ControlOperation, OperationSpec> = {
  sketch: {
    label: 'Sketch to image',
    description: 'Turns a sketch or line drawing into an image following its lines; control_strength 0-1.',
    fields: F({ prompt: true, negative_prompt: true, control_strength: true }),
    required: ['prompt'],
    providers: {
      vendor_c: 'control/sketch',
      vendor_d: 'flux-pro-1.0-canny',
      vendor_e: 'black-forest-labs/flux-canny-pro',
    },
  },
  structure: {
    label: 'Structure to image',
    description: 'Keeps the composition and depth of the control image; control_strength 0-1.',
    fields: F({ prompt: true, negative_prompt: true, control_strength: true }),
    required: ['prompt'],
    providers: {
      vendor_c: 'control/structure',
      vendor_d: 'flux-pro-1.0-depth',
      vendor_e: 'black-forest-labs/flux-depth-pro',
    },
  },
  style: {
    label: 'Style guide',
    description: 'Generates a new image in the style of the control image; fidelity 0-1, optional aspect_ratio.',
    fields: F({ prompt: true, negative_prompt: true, fidelity: true }),
    required: ['prompt'],
    providers: { vendor_c: 'control/style' },
  },
  style_transfer: {
    label: 'Style transfer',
    description:
      'Applies the style of style_image_base64 to the control image; style_strength, composition_fidelity, change_strength 0-1.',
    fields: F({ prompt: true, negative_prompt: true, style_image: true }),
    required: ['prompt', 'style_image'],
    providers: { vendor_c: 'control/style-transfer' },
  },
};

/** What a request carries, for checking the required inputs of its operation. */
export interface OperationInputs {
  prompt?: string;
  mask?: boolean;
  search_prompt?: string;
  select_prompt?: string;
  expansion?: number;
  style_image?: boolean;
  background_image?: boolean;
}

const FIELD_OF: Record<RequiredInput, string> = {
  prompt: 'prompt',
  mask: 'mask_base64',
  search_prompt: 'search_prompt',
  select_prompt: 'select_prompt',
  expansion: 'expand_left',
  style_image: 'style_image_base64',
  background_or_prompt: 'background_image_base64',
};

/** The missing required inputs of `op`, as [request field, message] pairs (empty when complete). */
export function missingInputs(op: string, spec: OperationSpec, i: OperationInputs): [string, string][] {
  const out: [string, string][] = [];
  const has = (s?: string) => typeof s === 'string' && s.trim().length > 0;
  for (const r of spec.required) {
    const ok =
      r === 'prompt'
        ? has(i.prompt)
        : r === 'mask'
          ? !!i.mask
          : r === 'search_prompt'
            ? has(i.search_prompt)
            : r === 'select_prompt'
              ? has(i.select_prompt)
              : r === 'expansion'
                ? (i.expansion ?? 0) > 0
                : r === 'style_image'
                  ? !!i.style_image
                  : !!i.background_image || has(i.prompt);
    if (ok) continue;
    const msg =
      r === 'expansion'
        ? `${op} needs at least one of expand_left, expand_right, expand_up, expand_down greater than 0`
        : r === 'background_or_prompt'
          ? `${op} needs background_image_base64 or a prompt describing the new background`
          : `${FIELD_OF[r]} is required for ${op}`;
    out.push([FIELD_OF[r], msg]);
  }
  return out;
}
