import { isUpstreamSuccess } from '@brandwire/domain';
import type { Store } from '@brandwire/store';
import type { MessengerPort } from '@brandwire/upstream';
import { Inject, Injectable, type OnApplicationBootstrap } from '@nestjs/common';
import { CONFIG, MESSENGER, SANDBOX, STORE } from '../app/tokens';
import type { Config } from '../config/config';
import type { SandboxLink } from '../sandbox/sandbox-link';
import { pushScheduleToSandbox } from './sandbox-schedule';
import { storedSchedule } from './stored-schedule';

/**
 * A sandbox messenger starts with every channel open and chat on. At start-up, and when a separately running
 * sandbox started again, the service gives it the chat state and hours it stored, so both tell the same story.
 * Other messengers keep their own.
 */
@Injectable()
export class SandboxSettingsSync implements OnApplicationBootstrap {
  constructor(
    @Inject(STORE) private readonly store: Store,
    @Inject(CONFIG) private readonly config: Config,
    @Inject(MESSENGER) private readonly messenger: MessengerPort,
    @Inject(SANDBOX) private readonly sandbox: SandboxLink | undefined,
  ) {}

  onApplicationBootstrap(): Promise<void> {
    return this.syncAll();
  }

  /** Gives the sandbox every channel with its chat state and hours (also to a sandbox that started again). */
  async syncAll(): Promise<void> {
    const sandbox = this.sandbox;
    if (!sandbox) return;
    for (const channel of await this.store.directory.listChannels()) {
      const set = await sandbox.control.setChannel(channel.senderKey, { type: channel.type, chatbotBuilder: channel.chatbotBuilder });
      if (!set.ok) throw new Error(`the sandbox messenger refused the channel ${channel.key}: ${set.code} ${set.message}`);
      const { chatActive } = await this.store.settings.get(channel.key);
      const chat = chatActive ? await this.messenger.activateChat(channel.senderKey) : await this.messenger.deactivateChat(channel.senderKey);
      if (!isUpstreamSuccess(chat.code)) throw new Error(`the sandbox messenger refused the chat state of ${channel.key}: ${chat.code} ${chat.message ?? ''}`);
      await pushScheduleToSandbox(sandbox, channel.senderKey, await storedSchedule(this.store, channel.key, this.config.timeZone));
    }
  }
}
