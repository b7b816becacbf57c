import { diffCase } from '../harness';

const LONG = 'x'.repeat(150);

/** Unknown commands: Redis quotes the name and up to 128 bytes of arguments. */
export const UNKNOWN_CASES = [
  diffCase('unknown command without arguments', 'FOO', 'foo'),
  diffCase('unknown command with arguments', 'FOO a b', 'GETT lock:a', 'SETT k v NX PX 100'),
  diffCase('unknown command with many arguments', `FOO ${Array.from({ length: 40 }, (_, i) => `arg${i}`).join(' ')}`),
  diffCase('unknown command with a long argument', `FOO ${LONG}`, `FOO a ${LONG}`, `${LONG}${LONG} a`),
  diffCase('unknown command with quotes and newlines in arguments', `FOO "a b" "c\\nd" 'it\\'s'`),
  diffCase('empty command name', '"" a'),
  // Names that are properties of every JavaScript object must still be unknown commands.
  diffCase('unknown command named like an object property', 'constructor', '__proto__ x', 'hasOwnProperty k', 'toString'),
];
