// /api-test, "API Connection Test" (document 3, decisions.md section 10): Run API Tests checks the
// server in order (health, car list, cars as the admin, users, two demo logins) and shows each
// test's result, HTTP status and time. The login tests are skipped on a server without demo data.
import { Activity, Play } from 'lucide-react';
import { useState } from 'react';
import { Alert } from '@/components/ui/alert';
import { Badge, type BadgeTone } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardHeader } from '@/components/ui/card';
import { ScrollRegion } from '@/components/ui/scroll-region';
import { API_TEST_NAMES, runApiTests, type ApiTestResult, type TestOutcome } from '../api/api-tests';
import { DevToolsAccess } from './dev-tools-access';

const OUTCOME: Record<TestOutcome, { label: string; tone: BadgeTone }> = {
  passed: { label: 'Passed', tone: 'success' },
  failed: { label: 'Failed', tone: 'danger' },
  skipped: { label: 'Skipped', tone: 'neutral' },
};

export function summaryOf(results: ApiTestResult[]): string {
  const count = (outcome: TestOutcome) => results.filter((r) => r.outcome === outcome).length;
  const total = results.reduce((sum, r) => sum + r.durationMs, 0);
  return `${count('passed')} passed, ${count('failed')} failed, ${count('skipped')} skipped in ${total} ms`;
}

function ConnectionTest() {
  const [results, setResults] = useState<ApiTestResult[]>([]);
  const [isRunning, setIsRunning] = useState(false);
  const [hasRun, setHasRun] = useState(false);

  const start = async () => {
    setIsRunning(true);
    setResults([]);
    try {
      await runApiTests((result) => setResults((current) => [...current, result]));
    } finally {
      setIsRunning(false);
      setHasRun(true);
    }
  };

  const failed = results.some((r) => r.outcome === 'failed');
  return (
    <div className="mx-auto w-full min-w-0 max-w-6xl px-4 py-8 sm:px-6">
      <div className="flex flex-wrap items-end justify-between gap-4">
        <div>
          <h1 className="text-3xl font-bold text-stone-900">API Connection Test</h1>
          <p className="mt-1 text-stone-600">Checks that this browser reaches the Karoo API and that its main calls answer.</p>
        </div>
        <Button size="lg" icon={<Play className="size-4" aria-hidden="true" />} loading={isRunning} onClick={() => void start()}>
          {isRunning ? 'Running Tests…' : 'Run API Tests'}
        </Button>
      </div>

      {hasRun && !isRunning ? (
        <Alert tone={failed ? 'danger' : 'success'} role="status" className="mt-6" title={failed ? 'Some tests failed' : 'All tests finished without a failure'}>
          {summaryOf(results)}
        </Alert>
      ) : null}

      <Card className="mt-6 overflow-hidden">
        <CardHeader title="Tests" description="Run in this order; each result appears as it finishes." icon={<Activity className="size-5" aria-hidden="true" />} />
        <ScrollRegion label="API test results">
          <table className="w-full min-w-[40rem] text-left text-sm">
            <thead className="bg-stone-50 text-xs font-semibold tracking-wide text-stone-500 uppercase">
              <tr>
                <th scope="col" className="px-5 py-3 sm:px-6">Test</th>
                <th scope="col" className="px-3 py-3">Result</th>
                <th scope="col" className="px-3 py-3">Status</th>
                <th scope="col" className="px-3 py-3 text-right">Time</th>
                <th scope="col" className="px-5 py-3 sm:px-6">Details</th>
              </tr>
            </thead>
            <tbody className="divide-y divide-stone-100">
              {API_TEST_NAMES.map((name, index) => {
                const result = results.find((r) => r.name === name);
                const isCurrent = isRunning && !result && index === results.length;
                return (
                  <tr key={name} className="align-top">
                    <th scope="row" className="px-5 py-3 font-medium text-stone-900 sm:px-6">{name}</th>
                    <td className="px-3 py-3">
                      {result ? (
                        <Badge tone={OUTCOME[result.outcome].tone}>{OUTCOME[result.outcome].label}</Badge>
                      ) : (
                        <span className="text-stone-500">{isCurrent ? 'Running…' : 'Not run'}</span>
                      )}
                    </td>
                    <td className="px-3 py-3 font-mono tabular-nums text-stone-700">{result?.status ?? '–'}</td>
                    <td className="px-3 py-3 text-right tabular-nums text-stone-700">{result && result.outcome !== 'skipped' ? `${result.durationMs} ms` : '–'}</td>
                    <td className="px-5 py-3 break-words text-stone-600 sm:px-6">{result?.detail ?? ''}</td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </ScrollRegion>
      </Card>
    </div>
  );
}

export function ApiTestPage() {
  return (
    <DevToolsAccess>
      <ConnectionTest />
    </DevToolsAccess>
  );
}
