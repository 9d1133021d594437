/** Small shapes shared by the image studio's domain modules. */

/** A chat message of this area's prompts (domain/ai/chat.ts). */
export type { ChatTurn as ChatMessageLike } from '../ai/chat';
