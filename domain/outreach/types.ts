/** A chat message as the AI gateway takes it (kept here so domain/outreach needs no infra import). */
export interface ChatMessageLike {
  role: 'system' | 'user' | 'assistant';
  content: string;
}
