import { afterAll } from 'vitest';
import { killLeftoverProcesses } from '../helpers/processes.js';

// a test that failed between starting a process and handing it to its file's cleanup leaves it running
afterAll(killLeftoverProcesses);
