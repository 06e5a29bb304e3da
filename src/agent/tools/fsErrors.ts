import { thrownMessage } from '../../shared/describeThrown';
/**
 * A file-system error as one sentence the model can act on, e.g.
 * `File does not exist: /ws/a.ts`. Falls back to the error's own message.
 */
export function describeFsError(err: unknown, absPath: string): string {
  const code = errnoCode(err);
  switch (code) {
    case 'ENOENT':
      return `File does not exist: ${absPath}`;
    case 'EACCES':
    case 'EPERM':
      return `Permission denied: ${absPath}`;
    case 'EISDIR':
      return `${absPath} is a directory, not a file`;
    case 'ENOTDIR':
      return `A parent of ${absPath} is a file, not a directory`;
    case 'ELOOP':
      return `Too many levels of symbolic links: ${absPath}`;
    case 'ENOSPC':
      return `No space left on device writing ${absPath}`;
    case 'EROFS':
      return `Read-only file system: ${absPath}`;
    default:
      return `${thrownMessage(err)} (${absPath})`;
  }
}

/** The Node errno code (`ENOENT`…) of an error, if it has one. */
export function errnoCode(err: unknown): string | undefined {
  if (typeof err === 'object' && err !== null && 'code' in err && typeof err.code === 'string') return err.code;
  return undefined;
}
