import { Injectable } from '@nestjs/common';

/** Tells what a revocation must end at once in this instance: the signal streams opened with the key. */
@Injectable()
export class KeyRevocations {
  private readonly listeners = new Map<string, Set<() => void>>();

  /** Calls `onRevoked` when the key is revoked here; returns what stops listening. */
  onRevoked(keyId: string, onRevoked: () => void): () => void {
    const listeners = this.listeners.get(keyId) ?? new Set();
    listeners.add(onRevoked);
    this.listeners.set(keyId, listeners);
    return () => {
      listeners.delete(onRevoked);
      if (listeners.size === 0 && this.listeners.get(keyId) === listeners) this.listeners.delete(keyId);
    };
  }

  revoked(keyId: string): void {
    const listeners = this.listeners.get(keyId);
    this.listeners.delete(keyId);
    for (const listener of listeners ?? []) listener();
  }
}
