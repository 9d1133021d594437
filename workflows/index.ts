/** Every workflow the worker runs; the bundle is built from this file. */
export { smokeWorkflow } from './smoke';
export { webhookDeliveryWorkflow } from './webhook-delivery';
export { blogResearchWorkflow, blogOutlineWorkflow, blogMediumWorkflow } from './blog';
export {
  blogEnhanceSectionWorkflow,
  blogOptimizeOutlineWorkflow,
  blogSectionGenerateWorkflow,
  blogSectionOptimizeWorkflow,
} from './blog-sync';
export { sitebuilderConnectWorkflow, sitebuilderDisconnectWorkflow, sitebuilderPublishWorkflow } from './sitebuilder';
export { imageGenerateWorkflow, imageProcessWorkflow } from './image';
export { outreachSendWorkflow } from './outreach-send';
export { outreachFollowUpWorkflow } from './outreach-follow-up';
export { outreachReplyPollWorkflow } from './outreach-replies';
export {
  outreachGenerateEmailWorkflow,
  outreachPersonalizeEmailWorkflow,
  outreachFollowUpEmailWorkflow,
  outreachSubjectSuggestionsWorkflow,
} from './outreach-writing';
export { outreachDiscoverWorkflow } from './outreach-discovery';
export { writerGenerateWorkflow, writerBatchWorkflow } from './writers';
export { calendarPublishWorkflow } from './calendar-publish';
export { calendarGenerateWorkflow } from './calendar-generate';
export {
  blogWriterWorkflow,
  blogWriterResearchWorkflow,
  profnetPostWorkflow,
  contentStrategyWorkflow,
  contentPersonasWorkflow,
} from './content';
export { contentGenerateWorkflow, contentBatchWorkflow } from './developer-content';
export { keywordResearchWorkflow } from './keywords';
export { performanceSyncWorkflow } from './performance';
export { videoPlanWorkflow, videoRenderWorkflow } from './video';
export { shortCopyWorkflow } from './copy';
export {
  podcastTextWorkflow,
  podcastResearchWorkflow,
  podcastScriptWorkflow,
  podcastAudioWorkflow,
  podcastUploadWorkflow,
  podcastCombineAudioWorkflow,
  podcastSceneVideoWorkflow,
  podcastCombineVideosWorkflow,
  podcastDubWorkflow,
} from './podcast';
