export { cycleThrough, dependencyRoot, linksOf, type ParentLinks } from './graph.js';
