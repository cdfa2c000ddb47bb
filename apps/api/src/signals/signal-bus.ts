import { EventEmitter } from 'node:events';
import type { SignalPayload } from '@brandwire/domain';
import { Injectable } from '@nestjs/common';

/**
 * In-process news of signals: a channel has new signals in the outbox (the delivery worker and live streams
 * read them from storage), or a consent result that exists only in memory.
 */
@Injectable()
export class SignalBus {
  private readonly emitter = new EventEmitter().setMaxListeners(0);
  private readonly listening = new Map<string, number>();

  written(channelKey: string): void {
    this.emitter.emit('written', channelKey);
  }

  onWritten(listener: (channelKey: string) => void): () => void {
    this.emitter.on('written', listener);
    return () => this.emitter.off('written', listener);
  }

  ephemeral(payload: SignalPayload): void {
    this.emitter.emit('ephemeral', payload);
  }

  /** A live stream of one channel hears its consent results. */
  onEphemeral(channelKey: string, listener: (payload: SignalPayload) => void): () => void {
    const own = (payload: SignalPayload) => {
      if (payload.brandKey === channelKey) listener(payload);
    };
    this.emitter.on('ephemeral', own);
    this.listening.set(channelKey, (this.listening.get(channelKey) ?? 0) + 1);
    return () => {
      this.emitter.off('ephemeral', own);
      const left = (this.listening.get(channelKey) ?? 1) - 1;
      if (left > 0) this.listening.set(channelKey, left);
      else this.listening.delete(channelKey);
    };
  }

  /** whether a live stream of the channel is open in this process */
  hasListener(channelKey: string): boolean {
    return this.listening.has(channelKey);
  }
}
