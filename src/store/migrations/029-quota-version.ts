// A search now offers nothing while the business's monthly booking quota is used up
// (use-cases/availability/quota.ts), an answer kept under the business's versions: a change of the
// limit must move the business version too, as a change of plan or status always did.
export default /* sql */ `
DROP TRIGGER subscriptions_version ON subscriptions;
CREATE CONSTRAINT TRIGGER subscriptions_version
  AFTER INSERT OR DELETE OR UPDATE OF business_id, plan, status, feature_overrides, max_bookings_per_month ON subscriptions
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION bump_business_version_by_business_id();
`;
