/**
 * The shape of one configuration variable: its type, default, meaning and
 * extra JSON Schema keywords. Every area table (infra/config/<area>.ts) is a
 * record of these.
 */
export type VarType = 'string' | 'integer' | 'boolean';

export interface VarSpec {
  type: VarType;
  default?: string | number | boolean;
  description: string;
  /** Extra JSON Schema keywords (minimum, pattern, enum, ...). */
  schema?: Record<string, unknown>;
}
