export function s3TestsAvailable(): { run: boolean; reason?: string };
