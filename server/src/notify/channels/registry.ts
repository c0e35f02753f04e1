import type { ChannelKind } from '@pagewatch/contract';
import type { Channel } from '../channel.js';
import { discord } from './discord/index.js';
import { email } from './email/index.js';
import { gotify } from './gotify/index.js';
import { mattermost } from './mattermost/index.js';
import { ntfy } from './ntfy/index.js';
import { opsgenie } from './opsgenie/index.js';
import { pagerduty } from './pagerduty/index.js';
import { pushover } from './pushover/index.js';
import { rocketchat } from './rocketchat/index.js';
import { slack } from './slack/index.js';
import { teams } from './teams/index.js';
import { telegram } from './telegram/index.js';
import { webhook } from './webhook/index.js';

/** Every kind's sender: adding a kind is its folder plus one line here. */
export const channelRegistry: Record<ChannelKind, Channel> = {
  webhook,
  slack,
  discord,
  teams,
  mattermost,
  rocketchat,
  telegram,
  ntfy,
  gotify,
  pushover,
  pagerduty,
  opsgenie,
  email,
};
