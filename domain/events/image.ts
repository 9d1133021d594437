/**
 * Events of the image studio: one per image a user got (generated, edited,
 * upscaled, optimised), on stream `imageasset-<user_id>:<key>` where key is
 * the content address of the stored file. The image-assets projection keeps
 * who may read which stored file (GET /api/image-studio/images/{key}).
 */
import { EventDefinitions, openAllRequired } from './types';
import { int, nonEmptyString } from '../schema';

export type ImageEvent = {
  type: 'ImageStored';
  data: {
    user_id: string;
    /** `<sha256>.<ext>`: the storage key (content address). */
    key: string;
    content_type: string;
    width: number;
    height: number;
    bytes: number;
    /** `generate`, `edit.<operation>`, `control.<operation>`, `upscale.<mode>`, `social.<platform>.<format>`. */
    operation: string;
    provider: string;
    model: string;
  };
};

export const imageEvents: EventDefinitions<ImageEvent['type']> = {
  ImageStored: {
    area: 'image',
    version: 1,
    schema: openAllRequired({
      user_id: nonEmptyString,
      key: { type: 'string', pattern: '^[0-9a-f]{64}\\.(png|jpg|webp)$' },
      content_type: nonEmptyString,
      width: int,
      height: int,
      bytes: int,
      operation: nonEmptyString,
      provider: nonEmptyString,
      model: nonEmptyString,
    }),
  },
};

export const imageAssetStream = (userId: string, key: string) => `imageasset-${userId}:${key}`;
