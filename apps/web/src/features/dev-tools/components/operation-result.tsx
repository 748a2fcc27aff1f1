// The playground's answer panel: document 3's success or failure banner with the server's message,
// and the JSON answer in a readable block.
import { Alert } from '@/components/ui/alert';
import type { OperationResult } from '../api/run-operation';

export const SUCCESS_BANNER = 'Operation completed successfully!';
export const FAILURE_BANNER = 'Operation failed. Please try again.';

export function OperationResultPanel({ result }: { result: OperationResult | null }) {
  if (!result) {
    return <p className="text-sm text-stone-500">Run an operation to see the server's answer here.</p>;
  }
  return (
    <div className="space-y-3">
      <Alert tone={result.isSuccess ? 'success' : 'danger'} role={result.isSuccess ? 'status' : 'alert'} title={result.isSuccess ? SUCCESS_BANNER : FAILURE_BANNER}>
        <span className="font-medium">{result.label}</span>
        {result.message ? <>: {result.message}</> : null}
      </Alert>
      <pre
        aria-label="Server response"
        className="max-h-[28rem] overflow-auto rounded-xl bg-stone-900 p-4 font-mono text-xs leading-5 whitespace-pre-wrap break-words text-stone-100"
      >
        {JSON.stringify(result.body, null, 2)}
      </pre>
    </div>
  );
}
