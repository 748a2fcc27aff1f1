import type { Documents, StoredDocument } from '@karoo/shared';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fail, makeUser, mockFetch, ok, signIn } from '@/test/fixtures';
import { renderApp } from '@/test/render';

const stored: StoredDocument = { url: '/api/user/sipho/documents/id_document', originalName: 'id.pdf', mime_type: 'application/pdf', size: 2048, uploaded_at: '2025-08-01T10:00:00Z' };
const none: Documents = { id_document: null, driver_license: null, proof_of_address: null, bank_confirmation_letter: null };

function setup(documents: Documents = none, extra: Parameters<typeof mockFetch>[0] = {}) {
  const user = makeUser({ verification_status: 'pending_upload' });
  signIn(user);
  let current: Documents = documents;
  const fetchMock = mockFetch({
    'GET /api/user/me': ok(user),
    'GET /api/notifications': ok([]),
    'GET /api/user/sipho/verification-status': () => ok({ verification_status: 'pending_upload', documents: current, missing: [] }),
    'POST /api/user/sipho/upload-document': () => {
      current = { ...current, driver_license: { ...stored, originalName: 'licence.pdf' } };
      return ok({ documents: current, verification_status: 'pending_upload' }, 'Document uploaded');
    },
    ...extra,
  });
  return { fetchMock, ...renderApp({ path: '/profile' }) };
}

const pdf = (name = 'licence.pdf', size = 1000) => {
  const file = new File(['%PDF-1.4'], name, { type: 'application/pdf' });
  Object.defineProperty(file, 'size', { value: size });
  return file;
};

describe('DocumentUploadPanel', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('shows every slot as Uploaded or Not Uploaded, with the hint and guidelines', async () => {
    setup({ ...none, id_document: stored });

    const idSlot = within(await screen.findByTestId('slot-ID Document'));
    expect(idSlot.getByText('Uploaded')).toBeInTheDocument();
    expect(idSlot.getByText('Replace document')).toBeInTheDocument();
    expect(idSlot.getByRole('button', { name: 'View' })).toBeInTheDocument();
    for (const slot of ["Driver's License", 'Proof of Address', 'Bank Confirmation Letter']) {
      const box = within(screen.getByTestId(`slot-${slot}`));
      expect(box.getByText('Not Uploaded')).toBeInTheDocument();
      expect(box.getByText('Upload document')).toBeInTheDocument();
      expect(box.getByText('PDF, JPG, PNG (max 10MB)')).toBeInTheDocument();
    }
    expect(screen.getByText('Documents must be current and not expired')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Refresh' })).toBeInTheDocument();
  });

  it('refuses a wrong file type (judged by content) and a file over 10MB at once, in the slot, by name', async () => {
    const { fetchMock } = setup();
    const input = await screen.findByTestId("upload-Driver's License");
    const slot = within(screen.getByTestId("slot-Driver's License"));

    fireEvent.change(input, { target: { files: [new File(['x'], 'notes.txt', { type: 'text/plain' })] } });
    expect(await slot.findByRole('alert')).toHaveTextContent('"notes.txt" is not a PDF, JPEG or PNG file.');
    fireEvent.change(input, { target: { files: [new File(['just text'], 'licence.png', { type: 'image/png' })] } });
    expect(await slot.findByText('"licence.png" is not a PDF, JPEG or PNG file.')).toBeInTheDocument();

    fireEvent.change(input, { target: { files: [pdf('big.pdf', 10 * 1024 * 1024 + 1)] } });
    expect(await slot.findByText('"big.pdf" is larger than 10MB.')).toBeInTheDocument();

    expect(fetchMock.mock.calls.some(([url]) => String(url).includes('upload-document'))).toBe(false);
  });

  it('uploads with the type first, then shows the document as Uploaded', async () => {
    const { fetchMock } = setup();
    const input = await screen.findByTestId("upload-Driver's License");

    fireEvent.change(input, { target: { files: [pdf()] } });

    expect(await screen.findByText('Document Uploaded')).toBeInTheDocument();
    await waitFor(() => expect(within(screen.getByTestId("slot-Driver's License")).getByText('Uploaded')).toBeInTheDocument());
    const call = fetchMock.mock.calls.find(([url]) => String(url).includes('upload-document'));
    const body = call?.[1]?.body as FormData;
    expect([...body.keys()]).toEqual(['type', 'document']);
    expect(body.get('type')).toBe('driver_license');
  });

  it('shows the server message when the upload is refused', async () => {
    setup(none, { 'POST /api/user/sipho/upload-document': fail(415, 'Only JPEG, PNG, and PDF files are allowed') });
    const input = await screen.findByTestId('upload-ID Document');

    fireEvent.change(input, { target: { files: [pdf('fake.pdf')] } });

    expect(await screen.findByText('Upload Failed')).toBeInTheDocument();
    expect(screen.getByText('Only JPEG, PNG, and PDF files are allowed')).toBeInTheDocument();
  });

  it('moves the progress bar in 10% steps up to 90% until the server answers, then to 100%', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    let answer: (response: Response) => void = () => undefined;
    setup(none, { 'POST /api/user/sipho/upload-document': () => new Promise<Response>((resolve) => (answer = resolve)) });
    const input = await screen.findByTestId('upload-ID Document');

    fireEvent.change(input, { target: { files: [pdf('id.pdf')] } });
    const bar = await screen.findByRole('progressbar', { name: 'Upload progress' });
    expect(bar).toHaveAttribute('aria-valuenow', '0');
    const seen: string[] = [];
    for (let step = 0; step < 12; step++) {
      await act(async () => {
        await vi.advanceTimersByTimeAsync(200);
      });
      seen.push(bar.getAttribute('aria-valuenow') ?? '');
    }
    // Steps of 10 (real time may add a tick), never past 90 before the answer.
    const values = seen.map(Number);
    values.forEach((value, i) => {
      expect(value % 10).toBe(0);
      expect(value).toBeLessThanOrEqual(90);
      if (i > 0) expect(value - values[i - 1]!).toBeGreaterThanOrEqual(0);
    });
    expect(values[0]).toBeGreaterThan(0);
    expect(values.slice(-3)).toEqual([90, 90, 90]);

    await act(async () => {
      answer(ok({ documents: none, verification_status: 'pending_upload' }));
    });
    await waitFor(() => expect(screen.getByRole('progressbar', { name: 'Upload progress' })).toHaveAttribute('aria-valuenow', '100'));
  });
});
