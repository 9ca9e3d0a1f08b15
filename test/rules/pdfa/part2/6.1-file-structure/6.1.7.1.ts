export { fixtures } from '../../part1/6.1-file-structure/6.1.7.js';
