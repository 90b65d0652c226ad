// bookings_staff_occupied_idx duplicated the exclusion constraint's own GiST index: every query
// over a staff member's occupied time also requires session_id IS NULL, so the constraint's index
// (bookings_no_overlap) serves them all. One GiST insert less per booking write.
export default /* sql */ `
DROP INDEX bookings_staff_occupied_idx;
`;
