import { jsonTypeOf, listInWords, RICH_BUBBLE_TYPES } from '@brandwire/domain';
import { readFileSync, statSync } from 'node:fs';
import { CliError } from './cli-error';
import { EXIT } from './exit-codes';

function fileError(flag: string, path: string, reason: string): CliError {
  return new CliError('FILE', `${flag} ${path}: ${reason}`, EXIT.usage);
}

/** Checks that a file given on the command line is a readable regular file. */
export function checkReadableFile(flag: string, path: string): string {
  let isFile: boolean;
  try {
    isFile = statSync(path).isFile();
  } catch (error) {
    throw fileError(flag, path, (error as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : (error as Error).message);
  }
  if (!isFile) throw fileError(flag, path, 'not a file');
  return path;
}

/** A file to send or upload: readable, and not empty (the service takes no empty file). */
export function checkSendableFile(flag: string, path: string): string {
  if (statSync(checkReadableFile(flag, path)).size === 0) throw fileError(flag, path, 'the file is empty');
  return path;
}

function readTextFile(flag: string, path: string): string {
  try {
    return path === '-' ? readFileSync(0, 'utf8') : readFileSync(checkReadableFile(flag, path), 'utf8');
  } catch (error) {
    if (error instanceof CliError) throw error;
    throw fileError(flag, path, (error as Error).message);
  }
}

/** Reads a JSON file given on the command line ("-" reads standard input); `code` names content that is not JSON. */
export function readJsonFile(flag: string, path: string, code = 'FILE'): unknown {
  const text = readTextFile(flag, path);
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    throw new CliError(code, `${flag} ${path}: not valid JSON (${(error as Error).message})`, EXIT.usage);
  }
}

/** The messenger's rich bubble types: another is refused by the messenger (-510) after a serial is spent on it. */
const BUBBLE_TYPE_LIST = listInWords(RICH_BUBBLE_TYPES);

/** The rich envelope of --rich-json: a JSON object with chat_bubble_type (command rule 4), sent as a string. */
export function readRichEnvelope(path: string): string {
  const envelope = readJsonFile('--rich-json', path, 'BAD_RICH');
  if (typeof envelope !== 'object' || envelope === null || Array.isArray(envelope)) {
    throw new CliError('BAD_RICH', `--rich-json ${path}: the rich envelope must be a JSON object`, EXIT.usage);
  }
  const type = (envelope as Record<string, unknown>)['chat_bubble_type'];
  if (type === undefined || type === null || type === '') {
    throw new CliError('BAD_RICH', `--rich-json ${path}: chat_bubble_type is required (${BUBBLE_TYPE_LIST})`, EXIT.usage);
  }
  if (typeof type !== 'string') {
    throw new CliError('BAD_RICH', `--rich-json ${path}: chat_bubble_type must be one of ${BUBBLE_TYPE_LIST} (a string), not ${jsonTypeOf(type)}`, EXIT.usage);
  }
  if (!(RICH_BUBBLE_TYPES as readonly string[]).includes(type)) {
    throw new CliError('BAD_RICH', `--rich-json ${path}: chat_bubble_type ${JSON.stringify(type)} is not one of ${BUBBLE_TYPE_LIST}`, EXIT.usage);
  }
  return JSON.stringify(envelope);
}
