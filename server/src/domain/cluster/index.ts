export { PARTITIONS, fmix32, partitionOf } from './partition.js';
export {
  defaultMaxRelease,
  defaultSlack,
  planStep,
  targetShares,
  type ShareMember,
  type StepInput,
} from './shares.js';
