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
export { shortCopyWorkflow } from './copy';
