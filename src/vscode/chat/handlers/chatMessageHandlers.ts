import type { FromWebviewMessage } from '../../../shared/webviewProtocol';
import type { ChatSurface } from '../chatWebviewHost';

/** A message a webview sends, but the `ready` handshake (the host answers that one). */
export type WebviewRequest = Exclude<FromWebviewMessage, { type: 'ready' }>;

/** One handler per webview message type; the compiler says when a type of the protocol has none. */
export type ChatMessageHandlers = {
  readonly [K in WebviewRequest['type']]: (message: Extract<WebviewRequest, { type: K }>, surface: ChatSurface) => void;
};

/** Hands `message` to the handler of its type. */
export function dispatchChatMessage(handlers: ChatMessageHandlers, message: WebviewRequest, surface: ChatSurface): void {
  (handlers[message.type] as (message: WebviewRequest, surface: ChatSurface) => void)(message, surface);
}
