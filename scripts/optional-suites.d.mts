export function s3TestsAvailable(): { run: boolean; reason?: string };
export function haproxyTestsAvailable(): { run: boolean; reason?: string };
