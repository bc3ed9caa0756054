/** Splitting a command line such as `node "my server.js" --stdio` into a program and arguments, without a shell. */

/**
 * Splits `text` POSIX-shell style: white space separates words; single quotes keep
 * everything literally; double quotes keep everything but `\"` and `\\`; a backslash outside
 * quotes escapes the next character. No variables, globs or operators. Throws a `TypeError`
 * for an unterminated quote or an empty command.
 */
export function splitCommandLine(text: string): { command: string; args: string[] } {
  const words: string[] = [];
  let word = "";
  let inWord = false;
  let quote: "'" | '"' | undefined;
  for (let i = 0; i < text.length; i++) {
    const c = text[i] as string;
    const next = text[i + 1];
    if (quote === "'") {
      if (c === "'") quote = undefined;
      else word += c;
    } else if (quote === '"') {
      if (c === '"') quote = undefined;
      else if (c === "\\" && (next === '"' || next === "\\")) word += text[++i] as string;
      else word += c;
    } else if (/\s/.test(c)) {
      if (inWord) words.push(word);
      word = "";
      inWord = false;
    } else {
      inWord = true;
      if (c === "'" || c === '"') quote = c;
      else if (c === "\\" && next !== undefined) word += text[++i] as string;
      else word += c;
    }
  }
  if (quote !== undefined) throw new TypeError(`unterminated ${quote} quote in command line: ${text.slice(0, 200)}`);
  if (inWord) words.push(word);
  const [command, ...args] = words;
  if (command === undefined || command === "") throw new TypeError('the command line is empty; pass the program to run and its arguments, e.g. "node server.js --stdio"');
  return { command, args };
}
