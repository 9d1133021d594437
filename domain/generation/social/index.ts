/**
 * The offline social writer (the `local` provider's answer for the writers):
 * a draft of the brief's kind, in the same JSON shape a text vendor is asked
 * for (domain/writers/drafts.ts), built from the request and the research
 * sources' sentences (kit.ts says how). Pure and deterministic.
 */
import type { DraftByKind } from '../../writers/drafts';
import type { WriterBrief } from '../../writers/types';
import type { Source } from '../types';
import { writeAdCopy } from './ad-copy';
import { writeProfnetArticle } from './article';
import { writeCarousel } from './carousel';
import { writeEvent } from './event';
import { createKit } from './kit';
import { writePageAbout } from './page-about';
import { writeReel, writeStory, writeVideoPost } from './plans';
import { writeGroupPost, writePost } from './post';

export interface SocialWriteInput {
  brief: WriterBrief;
  sources: Source[];
}

export function writeSocial(input: SocialWriteInput): DraftByKind[WriterBrief['kind']] {
  const b = input.brief;
  const k = createKit(b, input.sources);
  switch (b.kind) {
    case 'post':
      return writePost(k, b);
    case 'article':
      return writeProfnetArticle(k, b, input.sources);
    case 'video_post':
      return writeVideoPost(k, b);
    case 'reel':
      return writeReel(k, b);
    case 'carousel':
      return writeCarousel(k, b);
    case 'story':
      return writeStory(k, b);
    case 'event':
      return writeEvent(k, b);
    case 'group_post':
      return writeGroupPost(k, b);
    case 'page_about':
      return writePageAbout(k, b);
    case 'ad_copy':
      return writeAdCopy(k, b);
  }
}
