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

  onEphemeral(listener: (payload: SignalPayload) => void): () => void {
    this.emitter.on('ephemeral', listener);
    return () => this.emitter.off('ephemeral', listener);
  }
}
