import { Code, CodeValue } from '../result-codes';
import { Rejection } from './http-errors';
import type { PartnerCall } from './partner-calls';

/** The messenger's failures that no rule of the sandbox produces: a partner sets them to test how it copes. */
export const FAULT_CODES: readonly CodeValue[] = [Code.Forbidden, Code.Unauthorized, Code.ContractNotFound, Code.FailedToSendMessage, Code.InternalSystemError];

/** Failures set to answer the next calls of a partner path (`POST /_sandbox/faults`), each one call. */
export class PartnerFaults {
  private readonly pending = new Map<string, CodeValue[]>();
  private readonly known = new Set<string>();

  /** The partner paths a fault may be set on. */
  get paths(): string[] {
    return [...this.known];
  }

  add(path: string, code: CodeValue, times: number): void {
    this.pending.set(path, [...(this.pending.get(path) ?? []), ...Array.from({ length: times }, () => code)]);
  }

  clear(): void {
    this.pending.clear();
  }

  /** The calls, each answering the failures set on its path first. */
  wrap(calls: ReadonlyMap<string, PartnerCall>): Map<string, PartnerCall> {
    const wrapped = new Map<string, PartnerCall>();
    for (const [path, call] of calls) {
      this.known.add(path);
      wrapped.set(path, (body) => {
        const code = this.pending.get(path)?.shift();
        if (code !== undefined) throw new Rejection(code, 'a fault set with POST /_sandbox/faults');
        return call(body);
      });
    }
    return wrapped;
  }
}
