/** Small shapes shared by the image studio's domain modules. */

/** A chat message as the AI gateway takes it (infra/ai/tokens.ts ChatMessage has the same shape). */
export interface ChatMessageLike {
  role: 'system' | 'user' | 'assistant';
  content: string;
}
