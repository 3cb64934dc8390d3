/**
 * A merchant's code against the generated package, type-checked strict by TypeScript 6
 * and 7 (test/typecheck.test.ts): what must compile does, and what must not is marked.
 */
import { ErrorCode, MerchantApiError, MerchantClient, type ListTransactionsResponse, type Transaction } from "../../generated/src/index.js";

export async function merchantBackend(baseUrl: string): Promise<string[]> {
  const client = new MerchantClient({ baseUrl, apiKey: "k", publishableKey: "p", accessToken: async () => "t" });
  const tx: Transaction = await client.transactions.get("ABCD-EFGH-IJKL");
  const list: ListTransactionsResponse = await client.transactions.list({ timeoutMs: 1000 });
  const unknownBody: unknown = await client.transactions.authorize({ cart: { total_amount: 1 }, merchant_event_id: "e" }, { idempotencyKey: "k", nonce: true });
  const phone: string | undefined = (await client.testing.getRandomPhone()).phone;
  await client.webhooks.create({ division_id: "d", url: "https://m.example" });
  try {
    await client.subscriptions.cancel("sub_1");
  } catch (error) {
    if (error instanceof MerchantApiError && error.code === ErrorCode.apiKeyRejected) {
      const code: 1005 = error.code; // a known numeric code narrows
      return [String(code)];
    }
  }
  // @ts-expect-error the webhook body needs division_id
  await client.webhooks.create({ url: "https://m.example" });
  // @ts-expect-error cart.total_amount is an integer, not a string
  await client.transactions.authorize({ cart: { total_amount: "1" } });
  // @ts-expect-error the mock shipment status is one of four values
  await client.testing.trackMockShipment({ status: "lost" });
  // @ts-expect-error there is no such endpoint
  await client.transactions.delete("x");
  void unknownBody;
  return [tx.reference ?? "", String(list.transactions?.length), phone ?? ""];
}
