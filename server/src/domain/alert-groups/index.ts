export { groupedEvent, groupTitle, NAMES_SHOWN } from './grouped-event.js';
