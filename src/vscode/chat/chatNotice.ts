import type { Notice } from '../../shared/webviewProtocol';

/** A button on a chat notice. */
export interface ChatNoticeAction {
  readonly id: string;
  readonly label: string;
}

/**
 * The one notice above the chat's input, and the promise of whoever showed it: a new notice
 * replaces the old (which then resolves undefined); a click resolves with the action's id.
 */
export class ChatNotice {
  private current: { readonly notice: Notice; readonly resolve: (actionId: string | undefined) => void } | undefined;
  private counter = 0;

  /** The notice shown, if any. */
  get notice(): Notice | undefined {
    return this.current?.notice;
  }

  /** Replaces the notice; resolves with the clicked action's id, or undefined when cleared or replaced. */
  show(text: string, actions: readonly ChatNoticeAction[]): { readonly notice: Notice; readonly answer: Promise<string | undefined> } {
    this.settle(undefined);
    const notice: Notice = { id: `n${++this.counter}`, text, actions: actions.map((a) => ({ id: a.id, label: a.label })) };
    const answer = new Promise<string | undefined>((resolve) => (this.current = { notice, resolve }));
    return { notice, answer };
  }

  /** Resolves the notice shown with `actionId` (undefined: dismissed); false when none is shown. */
  settle(actionId: string | undefined): boolean {
    const current = this.current;
    this.current = undefined;
    current?.resolve(actionId);
    return current !== undefined;
  }

  /** A click on `noticeId`'s action: settles it when it is still the one shown. */
  answer(noticeId: string, actionId: string): boolean {
    if (this.current?.notice.id !== noticeId) return false;
    return this.settle(actionId);
  }
}
