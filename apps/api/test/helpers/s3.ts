// A real S3-compatible server for tests (s3rver, on loopback, a random free port, data in a temp
// folder), and the environment that points the app's storage at its one bucket. Not exported by
// index.ts: only files that test object storage start one.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import S3rver from 's3rver';

export interface TestS3 {
  /** S3_* variables for loadEnv / createTestApp({ env }). */
  env: Record<string, string>;
  bucket: string;
  endpoint: string;
  close(): Promise<void>;
}

export async function startTestS3(bucket = 'karoo-test'): Promise<TestS3> {
  const directory = await mkdtemp(path.join(tmpdir(), 'karoo-s3-'));
  const server = new S3rver({ address: '127.0.0.1', port: 0, silent: true, directory, configureBuckets: [{ name: bucket }] });
  try {
    const { port } = await server.run();
    const endpoint = `http://127.0.0.1:${port}`;
    return {
      bucket,
      endpoint,
      env: { S3_ENDPOINT: endpoint, S3_BUCKET: bucket, S3_REGION: 'us-east-1', S3_ACCESS_KEY_ID: 'S3RVER', S3_SECRET_ACCESS_KEY: 'S3RVER' },
      close: async () => {
        await server.close();
        await rm(directory, { recursive: true, force: true });
      },
    };
  } catch (error) {
    await rm(directory, { recursive: true, force: true });
    throw error;
  }
}
