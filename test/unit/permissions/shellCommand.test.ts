import { describe, expect, it } from 'vitest';
import { splitShellCommand } from '../../../src/permissions/shellCommand';

const split = (command: string) => {
  const result = splitShellCommand(command);
  return { parts: result.parts, risky: result.risky, unsure: result.unsure };
};

describe('splitShellCommand: the simple commands a shell would run', () => {
  it.each<[string, string[]]>([
    ['a && b || c; d | e', ['a', 'b', 'c', 'd', 'e']],
    ["echo 'a && b'", ["echo 'a && b'"]],
    ['echo "a # b"', ['echo "a # b"']],
    ['echo a#b # c; touch x', ['echo a#b']],
    ['sleep 1 & echo', ['sleep 1', 'echo']],
    ['a |& b', ['a', 'b']],
    ['make 2>&1', ['make 2>&1']],
    ['npm test 2>/dev/null', ['npm test 2>/dev/null']],
    // The repro: the backslash is inside the comment, so it does not continue the line.
    ['npm test #\\\ntouch PWN', ['npm test', 'touch PWN']],
    ['npm test \\\n  --watch', ['npm test --watch']],
    ['npm  \t test', ['npm test']],
    ['echo "$(whoami)"', ['whoami', 'echo "$(whoami)"']],
    ['echo `id`', ['id', 'echo `id`']],
    ['echo "`id`"', ['id', 'echo "`id`"']],
    ['diff <(ls a) >(wc -l)', ['ls a', 'wc -l', 'diff <(ls a) >(wc -l)']],
    ['echo ${x:-$(id)}', ['id', 'echo ${x:-$(id)}']],
    ['(cd a && make) | { grep x; }', ['cd a', 'make', 'grep x']],
    ['if npm test; then echo ok; else ls; fi', ['npm test', 'echo ok', 'ls']],
    ['while read l; do echo "$l"; done', ['read l', 'echo "$l"']],
    ['! grep x f', ['grep x f']],
    ['cat <<EOF\n$(touch x)\n`id`\n${y:-$(ls)}\nEOF\necho done', ['cat <<EOF', 'touch x', 'id', 'ls', 'echo done']],
    ["cat <<'EOF'\n$(touch x)\nEOF\necho done", ["cat <<'EOF'", 'echo done']],
    ['cat <<"EOF"\n`id`\nEOF', ['cat <<"EOF"']],
    ['cat <<-EOF\n\t$(id)\n\tEOF\nls', ['cat <<-EOF', 'id', 'ls']],
    ['cat <<A <<B\na\nA\n$(id)\nB', ['cat <<A <<B', 'id']],
    ['git commit -m "$(cat <<\'EOF\'\nfix: x $(rm -rf /)\nEOF\n)"', ["cat <<'EOF'", 'git commit -m "$(cat <<\'EOF\'\nfix: x $(rm -rf /)\nEOF\n)"']],
    ['x=$(id) ls', ['id', 'x=$(id) ls']],
    ['[ -f x ] && ls', ['[ -f x ]', 'ls']],
  ])('%j → %j', (command, parts) => {
    const result = split(command);
    expect(result.parts).toEqual(parts);
    expect(result.unsure).toBeUndefined();
  });

  it.each<[string, boolean]>([
    ['npm test > out.txt', true],
    ['npm test >> out.txt', true],
    ['echo hi &> f', true],
    ['echo x >$f', true],
    ['echo x >&2', false],
    ['echo x 2>&1 >/dev/null', false],
    ['echo x >&file', true],
    ['cat < in.txt', false],
  ])('%j writes a file: %s', (command, risky) => {
    expect(split(command)).toMatchObject({ risky, unsure: undefined });
  });

  it('`&>` in dash is "background, then a redirection": the command after it is a part', () => {
    expect(split('echo hi &>/dev/null touch PWN').parts).toContain('>/dev/null touch PWN');
  });
});

describe('splitShellCommand: unsure (allow rules must not apply)', () => {
  it.each<[string, string]>([
    ["echo 'unclosed", 'unclosed quote'],
    ['echo "unclosed', 'unclosed "'],
    ['echo $(ls', 'unclosed ('],
    ['echo `ls', 'unclosed `'],
    ['ls)', 'unbalanced )'],
    ['$X args', 'the command name is computed'],
    ['"$X" args', 'the command name is computed'],
    ['$(echo rm) -rf /', 'the command name is computed'],
    ['/bin/r? -rf /', 'the command name is a pattern'],
    ['{echo,hi}', 'the command name is a pattern'],
    ['/bin/[r]m x', 'the command name is a pattern'],
    ['eval ls', 'eval'],
    ['for f in *; do ls; done', 'for is not modelled'],
    ['case x in x) ls;; esac', 'case is not modelled'],
    ['ls ;; echo', 'case clause outside a modelled case'],
    ['f() { rm x; }; f', '( after a word (function definition, array or syntax error)'],
    ['a=(1 2)', '( after a word (function definition, array or syntax error)'],
    ['echo $((1 + 2))', 'arithmetic expansion'],
    ['((x++))', 'arithmetic command'],
    ["echo $'\\''; ls", "$'…' with backslashes (bash and dash differ)"],
    ['cat <<EOF\nbody', 'unterminated here-document'],
    ['cat <<EOF\nx\\\nEOF\nls\nEOF', 'here-document line ends with a backslash'],
    ['echo "$(cat <<EOF)"\nx\nEOF', 'here-document opened inside a substitution'],
    ['echo >', '> without a target'],
    ['echo "$\\\n(id)"', 'a line continuation inside an operator'],
    ['echo hi &\\\n& id', 'a line continuation inside an operator'],
    ['echo ${x:-"$(id)"}', 'quotes inside ${…}'],
    [`${'$('.repeat(40)}ls${')'.repeat(40)}`, 'nesting too deep'],
  ])('%j: %s', (command, reason) => {
    const result = split(command);
    expect(result.unsure).toBe(reason);
    expect(result.risky).toBe(true);
  });

  it('still finds the commands it can see', () => {
    expect(split('f() { rm -rf /; }; f').parts).toContain('rm -rf /');
    expect(split('for f in *; do touch "$f"; done').parts).toContain('touch "$f"');
  });

  it('never throws on hostile input', () => {
    for (const command of [
      '\\',
      '$',
      '`',
      '${',
      '$(',
      '<(',
      '<<',
      '<<EOF',
      '((',
      '))',
      '"\\',
      "$'",
      '\n\n',
      '#',
      '|&;',
      '{',
      '}',
      `${'('.repeat(5000)}`,
      `${'"$('.repeat(3000)}`,
    ]) {
      expect(() => splitShellCommand(command)).not.toThrow();
    }
  });
});
