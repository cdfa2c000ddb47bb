import { parseSchedule } from '@brandwire/domain';
import express, { Request, Response, Router } from 'express';
import { bodyOf, channelOf, optionalText } from './control-input';
import { ChannelInfo } from './control-types';
import { SandboxDeps } from './deps';
import { ControlError } from './http-errors';
import { Channel } from './state';
import { defaultSystemMessages, patchSystemMessages } from './system-messages';

/** The messenger's own zone: a schedule sent without a time zone is read in it. */
export const MESSENGER_TIME_ZONE = 'Asia/Seoul';

function senderKeyOf(req: Request): string {
  const senderKey = String(req.params['senderKey']);
  if (senderKey.length === 0 || senderKey.length > 40) {
    throw new ControlError(400, 'BAD_REQUEST', 'the sender key must be 1 to 40 characters');
  }
  return senderKey;
}

function infoOf(channel: Channel): ChannelInfo {
  return {
    ok: true,
    senderKey: channel.senderKey,
    type: channel.type,
    chatbotBuilder: channel.chatbotBuilder,
    active: channel.active,
    schedule: channel.schedule,
    systemMessages: channel.systemMessages,
  };
}

/** Channel setup as the messenger's admin centre does it: type, system texts, consultation hours. */
export function channelRoutes(deps: SandboxDeps): Router {
  const r = express.Router();
  const { state } = deps;

  r.put('/:senderKey', (req: Request, res: Response) => {
    const senderKey = senderKeyOf(req);
    const body = bodyOf(req);
    const type = optionalText(body, 'type', 40) ?? 'kakao';
    const chatbotBuilder = body['chatbotBuilder'] ?? false;
    if (typeof chatbotBuilder !== 'boolean') throw new ControlError(400, 'BAD_REQUEST', 'chatbotBuilder must be a boolean');
    // checked before the channel is touched, so a refused call changes nothing
    const current = state.channels.get(senderKey)?.systemMessages ?? defaultSystemMessages();
    const systemMessages = patchSystemMessages(current, body['systemMessages']);
    state.setChannel(senderKey, type, chatbotBuilder).systemMessages = systemMessages;
    res.json({ ok: true });
  });

  r.get('/:senderKey', (req: Request, res: Response) => {
    res.json(infoOf(channelOf(deps, senderKeyOf(req))));
  });

  r.put('/:senderKey/schedule', (req: Request, res: Response) => {
    const channel = channelOf(deps, senderKeyOf(req));
    const parsed = parseSchedule(bodyOf(req)['schedule'], MESSENGER_TIME_ZONE);
    if (!parsed.ok) throw new ControlError(400, 'BAD_REQUEST', parsed.message);
    channel.schedule = parsed.schedule;
    res.json({ ok: true, schedule: parsed.schedule });
  });

  return r;
}
