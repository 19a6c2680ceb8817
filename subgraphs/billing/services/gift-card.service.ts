import { randomUUID } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { TenantScope } from '../../../platform/tenant-scope';
import type { RequestAudit } from '../../../platform/audit/request-audit';
import { ConflictError, NotFoundError } from '../../../schema/errors';
import { recordEvent } from '../../common/jobs/record-event';
import type { Connection } from '../../common/connection';
import { listWindow } from '../../common/list-window';
import type { IssueGiftCardInput } from '../inputs/gift-card.input';
import { enqueue } from '../../../platform/jobs/job-queue';
import { GIFT_CARD_EMAIL_QUEUE, type GiftCardEmailJob } from '../notifications/email-queue';
import { takeEmailSlot } from '../notifications/email-quota';
import { DEFAULT_DAILY_LIMIT } from '../../common/mail/mail-settings';
import { NotificationRepository } from '../repositories/notification.repository';
import { DirectoryRepository } from '../repositories/directory.repository';
import { GIFT_CARD_KEYS, GiftCardRepository } from '../repositories/gift-card.repository';
import { GiftCardTransactionType } from '../types/enums';
import type { IssuedGiftCardListArgs, IssuedGiftCardView } from '../types/gift-card.type';
import { newGiftCardCode } from './gift-card-code';
import { validateIssue } from './gift-card-rules';
import { reusedRequestKey } from './rules';

/** Fresh codes tried before giving up; with ~78 bits per code a second draw is already rare. */
const CODE_ATTEMPTS = 5;

/** True when the card names a person (purchaser or recipient): reading it is a read of PHI (docs/audit.md). */
export const namesPerson = (card: IssuedGiftCardView): boolean =>
  [card.purchasingPatientId, card.purchasingPatientName, card.purchasingPatientEmail, card.purchasingPatientPhone, card.recipientPatientId, card.recipientPatientName, card.recipientPatientEmail, card.recipientPatientPhone, card.recipientNote].some((field) => field != null);

/** Issued gift cards (contract parts 3 and 4.6): issue, read, list, activate; reads of cards naming a person and every change leave an audit record. */
export class GiftCardService {
  /** `audit`: the request's side of the audit trail (ctx.audit); `emailDailyLimit`: notification e-mails the tenant may queue in any 24 hours (BillingDeps.notificationDailyLimit). */
  constructor(private readonly em: EntityManager, private readonly scope: TenantScope, private readonly audit: RequestAudit, private readonly emailDailyLimit = DEFAULT_DAILY_LIMIT) {}

  /** Issues a PENDING card with a fresh code; the card, its `gift_card.issued` event and its audit record commit together. */
  async issue(input: IssueGiftCardInput): Promise<IssuedGiftCardView> {
    const [patients, chargeItemExists] = await Promise.all([
      new DirectoryRepository(this.em, this.scope).patients([input.purchasingPatientId, input.recipientPatientId]),
      input.chargeItemId ? new GiftCardRepository(this.em, this.scope).chargeItemExists(input.chargeItemId) : Promise.resolve(false),
    ]);
    const card = validateIssue(input, { patients, chargeItemExists });
    return this.em.transactional(async (tx) => {
      const cards = new GiftCardRepository(tx, this.scope);
      for (let attempt = 0; attempt < CODE_ATTEMPTS; attempt++) {
        const issued = await cards.insert({ ...card, code: newGiftCardCode() });
        if (!issued) continue;
        // No code (a bearer secret) and no personal data in events: they leave for the tenant's webhook.
        await recordEvent(tx, this.scope, 'gift_card.issued', {
          giftCardId: issued.id,
          status: issued.status,
          initialValue: issued.initialValueCents,
          purchasingPatientId: issued.purchasingPatientId,
          recipientPatientId: issued.recipientPatientId,
          scheduledSendDate: issued.scheduledSendAt?.toISOString() ?? null,
        });
        await this.audit.change(tx, 'gift_card.issue', 'gift_card', [issued.id]);
        return issued;
      }
      throw new Error(`no free gift card code after ${CODE_ATTEMPTS} draws`);
    });
  }

  /** One card with its transactions; unknown and other tenants' ids are the same 404. */
  async get(id: string): Promise<IssuedGiftCardView> {
    const card = await new GiftCardRepository(this.em, this.scope).findById(id);
    if (!card) throw new NotFoundError('Gift card not found');
    if (namesPerson(card)) this.audit.read('gift_card', [card.id]);
    return card;
  }

  /** One window of cards, newest first. */
  async list(args: IssuedGiftCardListArgs): Promise<Connection<IssuedGiftCardView>> {
    const cards = await new GiftCardRepository(this.em, this.scope).list(args.status ?? null, listWindow(args, GIFT_CARD_KEYS));
    this.audit.read('gift_card', cards.nodes.filter(namesPerson).map((card) => card.id));
    return cards;
  }

  /**
   * PENDING -> ACTIVE (contract part 3): the card's row lock decides the race, then in the same
   * transaction the ACTIVATION transaction, the recipient e-mail (unless `sendNotification` is
   * false or the card suppresses it; sent later by its job, not before its
   * scheduled date), the `gift_card.activated` event and the audit record. A card that is not PENDING is a 409; an
   * e-mail over the tenant's daily cap is a 429 and the activation is undone with it.
   * `requestKey`, the caller's Idempotency-Key (null without one), is kept on the ACTIVATION
   * transaction: a retry with it after a lost answer gets the card (a read), not the 409; the same
   * key for another card is a reused key (422).
   */
  async activate(id: string, sendNotification: boolean, requestKey: string | null = null): Promise<IssuedGiftCardView> {
    return this.em.transactional(async (tx) => {
      const cards = new GiftCardRepository(tx, this.scope);
      const moved = requestKey === null ? null : await cards.movedUnder(requestKey, id);
      if (moved === 'another card') throw reusedRequestKey();
      const activated = await cards.activate(id);
      if (!activated) {
        if ((await cards.statusOf(id)) === null) throw new NotFoundError('Gift card not found');
        // A retry of the request that activated it, whose answer was lost (its gateway died first): that activation is the answer.
        if (moved === 'this card') {
          const card = (await cards.findById(id))!;
          if (namesPerson(card)) this.audit.read('gift_card', [card.id]);
          return card;
        }
        throw new ConflictError('Gift card is not pending');
      }
      const transaction = await cards.addTransaction(activated.id, randomUUID(), GiftCardTransactionType.ACTIVATION, activated.initialValueCents, activated.currentBalanceCents, requestKey);
      const notify = sendNotification && !activated.suppressRecipientNotification && !!activated.recipientPatientEmail;
      if (notify) {
        await takeEmailSlot(new NotificationRepository(tx, this.scope), this.emailDailyLimit);
        const notification: GiftCardEmailJob = { notificationId: randomUUID(), tenantId: this.scope.tenantId };
        const jobId = randomUUID();
        const due = await cards.queueNotification(notification.notificationId, jobId, activated.id, activated.recipientPatientEmail!, activated.scheduledSendAt);
        await enqueue(tx, GIFT_CARD_EMAIL_QUEUE, [{ id: jobId, data: notification, startAfter: due }]);
      }
      await recordEvent(tx, this.scope, 'gift_card.activated', {
        giftCardId: activated.id,
        activatedAt: activated.activatedAt?.toISOString() ?? null,
        currentBalance: activated.currentBalanceCents,
        notificationQueued: notify,
      });
      await this.audit.change(tx, 'gift_card.activate', 'gift_card', [activated.id]);
      // The card had no transactions before: PENDING cards have none, so this is the whole list.
      return { ...activated, transactions: [transaction] };
    });
  }
}
