/** A chat message of this area's prompts (domain/ai/chat.ts). */
export type { ChatTurn as ChatMessageLike } from '../ai/chat';
