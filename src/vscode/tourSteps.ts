import { z } from 'zod';

/** The walkthrough's id in package.json `contributes.walkthroughs`. */
export const WALKTHROUGH_ID = 'hookwise.gettingStarted';

const walkthroughsSchema = z.object({
  contributes: z.object({
    walkthroughs: z.array(
      z.object({
        id: z.string(),
        steps: z.array(z.object({ id: z.string(), completionEvents: z.array(z.string()).optional() })),
      }),
    ),
  }),
});

/** The walkthrough's steps as VS Code's Getting Started keeps them (`<publisher.name>#<walkthrough>#<step>`). */
export interface TourStep {
  readonly id: string;
  readonly completionEvents: readonly string[];
}

/** The walkthrough's steps; none when the manifest does not parse. */
export function tourSteps(extensionId: string, packageJson: unknown): TourStep[] {
  const parsed = walkthroughsSchema.safeParse(packageJson);
  const walkthrough = parsed.success ? parsed.data.contributes.walkthroughs.find((w) => w.id === WALKTHROUGH_ID) : undefined;
  return (walkthrough?.steps ?? []).map((step) => ({ id: `${extensionId}#${WALKTHROUGH_ID}#${step.id}`, completionEvents: step.completionEvents ?? [] }));
}

/** The step ids whose `completionEvents` include `event` (`onCommand:hookwise.openChat`, `onView:hookwise.hookRuns`). */
export function tourStepsDoneBy(extensionId: string, packageJson: unknown, event: string): string[] {
  return tourSteps(extensionId, packageJson)
    .filter((step) => step.completionEvents.includes(event))
    .map((step) => step.id);
}
