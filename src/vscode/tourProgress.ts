import * as vscode from 'vscode';
import { tourStepsDoneBy } from './tourSteps';

/**
 * Marks done the walkthrough steps that `event` completes. VS Code completes a step on its
 * event only the first time the event happens in a window, so after "Hookwise: Restart Tour"
 * the same action would leave its step open; the tour's commands and views call this
 * themselves. Never rejects: a VS Code without the command only misses the check mark.
 */
export async function completeTourSteps(extension: vscode.Extension<unknown>, event: string, log?: vscode.LogOutputChannel): Promise<void> {
  for (const step of tourStepsDoneBy(extension.id, extension.packageJSON, event)) {
    try {
      await vscode.commands.executeCommand('welcome.markStepComplete', step);
    } catch (error) {
      // Early after the window opens VS Code may not have registered the walkthrough yet.
      log?.debug(`walkthrough: could not mark the step ${step} done: ${String(error)}`);
    }
  }
}
