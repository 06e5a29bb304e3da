import os from 'node:os';
import path from 'node:path';

/**
 * The folder of a project's transcripts: `$HOOKWISE_HOME/projects/<project-slug>/`
 * (default `~/.hookwise`). The CLI and the extension share it, so a session started in one
 * shows in the other's history.
 */
export function transcriptDirFor(projectDir: string, env: NodeJS.ProcessEnv): string {
  const home = env.HOOKWISE_HOME ?? path.join(os.homedir(), '.hookwise');
  const slug = path
    .resolve(projectDir)
    .replace(/[^a-zA-Z0-9]+/g, '-')
    .replace(/^-|-$/g, '');
  return path.join(home, 'projects', slug || 'root');
}
