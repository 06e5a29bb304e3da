import * as vscode from 'vscode';
import { tourSteps, WALKTHROUGH_ID } from './tourSteps';

/** Command id of "Hookwise: Restart Tour" (package.json). */
export const RESTART_TOUR_COMMAND = 'hookwise.restartTour';

/**
 * "Hookwise: Restart Tour": restarts the Playground's script from its first turn (a fresh
 * model), opens the walkthrough, and marks every step of it not done.
 * The step commands are VS Code's own; one that fails is logged, and the walkthrough still opens.
 */
export function registerRestartTour(
  context: vscode.ExtensionContext,
  deps: { readonly log: vscode.LogOutputChannel; readonly restartModel: () => Promise<void> },
): vscode.Disposable {
  const extensionId = context.extension.id;
  return vscode.commands.registerCommand(RESTART_TOUR_COMMAND, async () => {
    deps.log.info('Restart Tour: restarting the Playground, then the walkthrough');
    await deps.restartModel();
    await vscode.commands.executeCommand('workbench.action.openWalkthrough', `${extensionId}#${WALKTHROUGH_ID}`, false);
    // The steps are reset last, in the open walkthrough: once they show as not done, the whole
    // command has run (a walkthrough opened after someone closed it would be a surprise).
    for (const { id: step } of tourSteps(extensionId, context.extension.packageJSON)) {
      try {
        await vscode.commands.executeCommand('welcome.markStepIncomplete', step);
      } catch (error) {
        deps.log.warn(`Restart Tour: could not reset the walkthrough step ${step}: ${String(error)}`);
      }
    }
    deps.log.info('Restart Tour: walkthrough reset and opened; the Playground starts its script again');
  });
}
