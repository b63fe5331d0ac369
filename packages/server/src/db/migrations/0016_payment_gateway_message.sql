-- A payment attempt keeps the gateway's reason ("Insufficient funds", a timeout …), shown in the payment results and
-- the retry's answer (issue 27). Earlier attempts have none.
ALTER TABLE "payment_result_detail" ADD COLUMN "gatewayMessage" text;
