import { describe, expect, it } from 'vitest';
import { ConfigError, DEFAULT_PART_SIZE, loadConfig, S3_MIN_PART_SIZE } from '../../src/kernel/config.js';

const problems = (env: Record<string, string>) => {
  try {
    loadConfig(env);
    return [];
  } catch (error) {
    return (error as ConfigError).problems;
  }
};

describe('BLOB_STORE and the S3 settings', () => {
  it('local disk is the default', () => {
    expect(loadConfig({}).blobs).toEqual({ kind: 'local' });
  });

  it('s3 with an endpoint: path-style by default, us-east-1, credentials from the environment', () => {
    const config = loadConfig({
      BLOB_STORE: 's3',
      S3_BUCKET: 'files',
      S3_ENDPOINT: 'http://127.0.0.1:8080',
      AWS_ACCESS_KEY_ID: 'id',
      AWS_SECRET_ACCESS_KEY: 'secret',
    });
    expect(config.blobs).toEqual({
      kind: 's3',
      bucket: 'files',
      endpoint: 'http://127.0.0.1:8080',
      region: 'us-east-1',
      forcePathStyle: true,
      credentials: { accessKeyId: 'id', secretAccessKey: 'secret' },
    });
  });

  it('s3 on AWS: virtual-hosted style, the region given, the SDK finds the credentials', () => {
    expect(loadConfig({ BLOB_STORE: 's3', S3_BUCKET: 'b', S3_REGION: 'eu-west-1' }).blobs).toEqual({
      kind: 's3',
      bucket: 'b',
      region: 'eu-west-1',
      forcePathStyle: false,
    });
    expect(
      loadConfig({
        BLOB_STORE: 's3',
        S3_BUCKET: 'b',
        S3_ENDPOINT: 'https://s3.example',
        S3_FORCE_PATH_STYLE: 'false',
      }).blobs,
    ).toMatchObject({ forcePathStyle: false });
  });

  it('each mistake is one line', () => {
    expect(problems({ BLOB_STORE: 'gcs' })).toEqual(['BLOB_STORE must be one of local, s3, got "gcs"']);
    expect(problems({ BLOB_STORE: 's3' })).toEqual(['S3_BUCKET must be set when BLOB_STORE=s3']);
    expect(problems({ BLOB_STORE: 's3', S3_BUCKET: 'b', S3_ENDPOINT: 'localhost:9000' })).toEqual([
      'S3_ENDPOINT must be an http:// or https:// URL, got "localhost:9000"',
    ]);
    expect(problems({ BLOB_STORE: 's3', S3_BUCKET: 'b', S3_FORCE_PATH_STYLE: 'yes' })).toEqual([
      'S3_FORCE_PATH_STYLE must be one of true, false, got "yes"',
    ]);
  });

  it('with S3 the part size is at least 5 MiB; exactly 5 MiB is fine; local disk takes any', () => {
    const s3 = { BLOB_STORE: 's3', S3_BUCKET: 'b' };
    expect(problems({ ...s3, UPLOAD_PART_SIZE: String(S3_MIN_PART_SIZE - 1) })).toEqual([
      'UPLOAD_PART_SIZE must be at least 5242880 (5 MiB) with BLOB_STORE=s3, got 5242879',
    ]);
    expect(problems({ ...s3, UPLOAD_PART_SIZE: String(S3_MIN_PART_SIZE) })).toEqual([]);
    expect(problems({ UPLOAD_PART_SIZE: '65536' })).toEqual([]);
  });

  it('parts are 8 MiB on the local disk and 64 MiB in S3 unless UPLOAD_PART_SIZE says otherwise', () => {
    const s3 = { BLOB_STORE: 's3', S3_BUCKET: 'b' };
    expect(loadConfig({}).uploadPartSize).toBe(8 * 1024 * 1024);
    expect(loadConfig(s3).uploadPartSize).toBe(64 * 1024 * 1024);
    expect(DEFAULT_PART_SIZE).toEqual({ local: 8 * 1024 * 1024, s3: 64 * 1024 * 1024 });
    expect(loadConfig({ ...s3, UPLOAD_PART_SIZE: String(S3_MIN_PART_SIZE) }).uploadPartSize).toBe(
      S3_MIN_PART_SIZE,
    );
    expect(loadConfig({ UPLOAD_PART_SIZE: '65536' }).uploadPartSize).toBe(65536);
  });
});
