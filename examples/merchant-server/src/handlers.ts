/**
 * Handlers of the Merchant Commerce API callbacks, scaffolded by apigen from spec/
 * (`npm run generate -- --scaffold-handlers examples/merchant-server/src/handlers.ts`) and then
 * filled in for this example: a small in-memory catalogue answers product.info, a flat-rate
 * table answers order.shipping, cart.update prices the items added to a cart, and
 * account.login accepts the codes of the shoppers it knows. Its types come from the generated
 * package, so a change of the spec shows up here as a compile error.
 */
import type {
  CallbackHandlers,
  ProductInfoResult,
  OrderShippingResult,
  CartUpdateResult,
  AccountLoginResult,
} from "merchant-commerce-api/callbacks";
import type { Product } from "merchant-commerce-api";

/** The merchant's catalogue, by product id and SKU. */
export const catalogue: Record<string, Product & { sku: string; priceInCents: number }> = {
  "prod-mug": { sku: "MUG-BLUE", ServiceID: "prod-mug", Brand: "Acme", Name: "Blue mug", Availability: "in_stock", AvailabilityCount: "42", Taxable: true, Prices: [{ UnitPriceInCents: 1250, Currency: "USD" }], priceInCents: 1250 },
  "prod-tea": { sku: "TEA-GREEN", ServiceID: "prod-tea", Brand: "Acme", Name: "Green tea", Availability: "in_stock", AvailabilityCount: "7", Taxable: true, Prices: [{ UnitPriceInCents: 899, Currency: "USD" }], priceInCents: 899 },
};

/** Looks a product up by id, else by SKU. */
function findProduct(id?: string, sku?: string) {
  return (id !== undefined ? catalogue[id] : undefined) ?? Object.values(catalogue).find((p) => p.sku === sku);
}

/** OAuth codes of the shoppers this merchant knows, as the service would hand them out. */
export const knownLoginCodes = new Set(["code-alice"]);

/**
 * product.info: `GET /product_get`, body `ProductInfoRequest`.
 * Either productID or sku may be sent; when both are present, productID is used.
 */
export const productInfo: CallbackHandlers["product.info"] = async (body, ctx): Promise<ProductInfoResult> => {
  const product = findProduct(body.data?.productID, body.data?.sku);
  if (!product) {
    ctx.setStatus(404);
    return { status: "failure", error: { code: 404, message: `no product ${body.data?.productID ?? body.data?.sku ?? "(none given)"}` } };
  }
  const { sku: _sku, priceInCents: _price, ...current } = product;
  return { status: "success", data: { Current: current, Variants: [], Parent: { Name: "Kitchen", Brand: product.Brand ?? "Acme" } } };
};

/**
 * order.shipping: `POST /order_shipping`, body `OrderShippingRequest`.
 * Flat rates: ground everywhere, express inside the US, free ground above $50.
 */
export const orderShipping: CallbackHandlers["order.shipping"] = async (body): Promise<OrderShippingResult> => {
  const country = body.data?.shipping_address?.country_code;
  if (!country) return { status: "failure", error: { code: 422, data: [{ reason: "a shipping address with a country is needed" }] } };
  const total = typeof body.data?.cart?.total_amount === "number" ? body.data.cart.total_amount : 0;
  const options = [{ service: "Ground", reference: "ship-ground", cost: total >= 5000 ? 0 : 500, estimated_delivery_date: "5 business days" }];
  if (country === "US") options.push({ service: "Express", reference: "ship-express", cost: 1500, estimated_delivery_date: "1 business day" });
  return { status: "success", data: { shipping_options: options, is_store_location: false } };
};

/**
 * cart.update: `POST /cart_update`, body `CartUpdateRequest`.
 * Prices the added items from the catalogue; an unknown product fails with code 6001.
 */
export const cartUpdate: CallbackHandlers["cart.update"] = async (body): Promise<CartUpdateResult> => {
  const added = body.data?.add_items ?? [];
  const unknown = added.filter((item) => !findProduct(item.product_id));
  if (unknown.length > 0) {
    return { status: "failure", errors: unknown.map((item) => ({ code: 6001, data: [{ reason: `unknown product ${item.product_id ?? "(none)"}` }] })) };
  }
  const items = added.map((item) => {
    const product = findProduct(item.product_id)!;
    const quantity = item.quantity ?? 1;
    return { reference: product.ServiceID ?? product.sku, sku: product.sku, name: product.Name ?? product.sku, quantity, total_amount: product.priceInCents * quantity };
  });
  const total = items.reduce((sum, item) => sum + item.total_amount, 0);
  return { status: "success", data: { order_create: { cart: { items, total_amount: total, currency: "USD" } } } };
};

/**
 * account.login: `GET /oauth/login`, parameters `AccountLoginParams` (after the path as segments, or in the query string).
 * A known code logs the shopper in; the service's token exchange is out of this example.
 */
export const accountLogin: CallbackHandlers["account.login"] = async (params, ctx): Promise<AccountLoginResult> => {
  if (knownLoginCodes.has(params.code)) return { status: "success" };
  ctx.setStatus(401);
  return { status: "failure", errors: [{ code: 401, data: [{ reason: `unknown login code for reference ${params.reference}` }] }] };
};

/**
 * Every handler, by event.
 */
export const handlers: CallbackHandlers = {
  "product.info": productInfo,
  "order.shipping": orderShipping,
  "cart.update": cartUpdate,
  "account.login": accountLogin,
};
