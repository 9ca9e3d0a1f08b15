export { fixtures } from '../../part1/6.1-file-structure/6.1.6.js';
