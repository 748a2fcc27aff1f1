// The sandbox payout provider: the default without Paystack keys (decision 068). It keeps its own
// books (sandbox_transfers) and models what Paystack does, chosen by the account number's last
// digits so that a person trying Karoo, and the tests, can ask for each case:
//   …0000  the bank does not know the account (resolve refuses it);
//   …1111  the first transfer to the account fails (the bank refuses the credit), later ones are paid
//          (an administrator's Retry after the host sorted it out with their bank);
//   …2222  the transfer is paid, then reversed by the bank three days later;
//   any other account is paid.
// With PAYOUT_SANDBOX_OTP on, every transfer waits for the OTP (123456) as Paystack's do when the
// business keeps its OTP setting on. The outcome is read at the clock's time, as a verify would.
import type { Clock } from '../../context';
import type { Db } from '../../db/connection';
import { PayoutRefusedError, type PayoutBank, type PayoutProvider, type ProviderTransfer, type ResolvedAccount, type TransferInput } from './payout-provider';

/** South African banks with their universal branch codes, as Paystack lists them for `basa`. */
export const SANDBOX_BANKS: readonly PayoutBank[] = [
  { code: '632005', name: 'Absa Bank' },
  { code: '430000', name: 'African Bank' },
  { code: '470010', name: 'Capitec Bank' },
  { code: '679000', name: 'Discovery Bank' },
  { code: '250655', name: 'First National Bank' },
  { code: '580105', name: 'Investec Bank' },
  { code: '198765', name: 'Nedbank' },
  { code: '051001', name: 'Standard Bank' },
  { code: '678910', name: 'TymeBank' },
];

/** The holder the sandbox's bank answers for an account, by its last digit. */
const HOLDERS = ['N DLAMINI', 'S NAIDOO', 'J VAN DER MERWE', 'L MOLOI', 'A PETERSEN', 'K NKOSI', 'P BOTHA', 'Z MAHLANGU', 'T MOKOENA', 'R PILLAY'];

export const SANDBOX_OTP = '123456';
const REVERSED_AFTER_MS = 3 * 24 * 3_600_000;

const accountOf = (recipientCode: string) => recipientCode.split('_').at(-1) ?? '';

export class SandboxTransfers implements PayoutProvider {
  readonly name = 'sandbox' as const;

  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly otp: boolean,
  ) {}

  async listBanks(): Promise<PayoutBank[]> {
    return [...SANDBOX_BANKS];
  }

  async resolveAccount(input: { accountNumber: string; bankCode: string }): Promise<ResolvedAccount> {
    if (!SANDBOX_BANKS.some((b) => b.code === input.bankCode)) throw new PayoutRefusedError('Unknown bank code.');
    if (input.accountNumber.endsWith('0000')) throw new PayoutRefusedError('Could not resolve account name. Check parameters or try again.');
    return { accountNumber: input.accountNumber, accountName: HOLDERS[Number(input.accountNumber.at(-1))]! };
  }

  async createRecipient(input: { name: string; accountNumber: string; bankCode: string }): Promise<string> {
    await this.resolveAccount(input);
    return `RCP_sandbox_${input.bankCode}_${input.accountNumber}`;
  }

  async initiateTransfer(input: TransferInput): Promise<ProviderTransfer> {
    if (!input.recipientCode.startsWith('RCP_sandbox_')) throw new PayoutRefusedError('Recipient not found.');
    const known = await this.verifyTransfer(input.reference);
    if (known) return known;
    const transferCode = `TRF_sandbox_${input.reference}`;
    await this.db
      .insertInto('sandbox_transfers')
      .values({ reference: input.reference, transfer_code: transferCode, recipient_code: input.recipientCode, amount_cents: input.amountCents, status: this.otp ? 'otp' : 'pending', created_at: this.clock.now() })
      .onConflict((oc) => oc.column('reference').doNothing())
      .execute();
    return (await this.verifyTransfer(input.reference))!;
  }

  async finalizeTransfer(input: { transferCode: string; otp: string }): Promise<ProviderTransfer> {
    const row = await this.db.selectFrom('sandbox_transfers').selectAll().where('transfer_code', '=', input.transferCode).executeTakeFirst();
    if (!row) throw new PayoutRefusedError('Transfer not found.');
    if (row.status === 'otp') {
      if (input.otp !== SANDBOX_OTP) throw new PayoutRefusedError('Invalid OTP.');
      await this.db.updateTable('sandbox_transfers').set({ status: 'pending', created_at: this.clock.now() }).where('reference', '=', row.reference).execute();
    }
    return (await this.verifyTransfer(row.reference))!;
  }

  /** Accepted, the bank answers at once: paid, failed, or (…2222) paid and reversed three days later. */
  async verifyTransfer(reference: string): Promise<ProviderTransfer | null> {
    const row = await this.db.selectFrom('sandbox_transfers').selectAll().where('reference', '=', reference).executeTakeFirst();
    if (!row) return null;
    const base = { transferCode: row.transfer_code };
    if (row.status === 'otp') return { ...base, status: 'otp', reason: null };
    const account = accountOf(row.recipient_code);
    if (account.endsWith('1111')) {
      const first = await this.db.selectFrom('sandbox_transfers').select('reference').where('recipient_code', '=', row.recipient_code).orderBy('created_at').orderBy('reference').executeTakeFirst();
      if (first?.reference === row.reference) return { ...base, status: 'failed', reason: 'The bank refused the credit (account dormant).' };
    }
    if (account.endsWith('2222') && this.clock.now().getTime() - new Date(row.created_at).getTime() >= REVERSED_AFTER_MS) {
      return { ...base, status: 'reversed', reason: 'The bank returned the money (account frozen).' };
    }
    return { ...base, status: 'success', reason: null };
  }

  isSignedWebhook(): boolean {
    return false;
  }
}
