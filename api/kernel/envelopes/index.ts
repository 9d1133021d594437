/** The envelope of each route family. */
import type { Family } from '../families';
import type { Envelope } from './common';
import { generalEnvelope } from './general';
import { developerEnvelope } from './developer';
import { subscriptionEnvelope } from './subscription';
import { calendarEnvelope } from './calendar';
import { outreachEnvelope } from './outreach';
import { imageStudioEnvelope } from './image-studio';

export const ENVELOPES: Record<Family, Envelope> = {
  general: generalEnvelope,
  developer: developerEnvelope,
  subscription: subscriptionEnvelope,
  calendar: calendarEnvelope,
  outreach: outreachEnvelope,
  image_studio: imageStudioEnvelope,
};

export type { Envelope, EnvelopeCtx } from './common';
