// The cars module's front door: listing and managing cars, browse and the public reads, admins'
// verification, photos, the browse cache and the browse index. The only file other modules and the
// app import.
import type { AppContext } from '../../context';
import type { Subscriptions } from '../../events/domain-events';
import './cars.context';
import { carRejected, carVerified, registrationRejected, registrationVerified } from './cars.notices';
import { forgetBrowsePages, forgetBrowsePagesOfSettings } from './listing-cache';

export type { CarRef, CarRemovalCause } from './cars.events';
export { browseIndexEnabled, createBrowseIndex, pruneBrowseChanges, type BrowseIndex } from './browse-index';
export { clearBrowseCache, createListingCache, forgetBrowsePages, type ListingCache } from './listing-cache';
export { storedInsuranceOption, storedPickupOption, toInsuranceOption, toPickupOption, toSpecifications } from './cars.mapper';
export {
  canManageCar,
  carRef,
  findCar,
  findCarForAdmin,
  findManageableCar,
  markCarReturned,
  recordCarRating,
  removeOwnerCars,
  reload,
  today,
  viewCar,
  type CarRecord,
} from './cars.service';
export { carsRoutes, type CarsRoutesDeps } from './cars.routes';
export { carCalendarRoutes } from './car-calendar.routes';
export { enqueuePhotoConversion, enqueuePhotoSweep, photoConvertJob, photoSweepJob } from './car-photos.job';
export { tripRulesOf } from './trip-rules';
export { instantBookingOf } from './instant-booking';
export type { HostCancellationsOf } from './car-browse.service';
export { countCarsForAdmin, listCarsForAdmin, type AdminCarPage } from './car-admin.service';
export { citiesWithListedCars, countListedCars, listedCarsForSitemap, wasCarRemoved, type SitemapCar } from './car-sitemap';
export { BROWSE_TOPIC } from './listing-cache';

export const carsSubscriptions: Subscriptions<AppContext> = {
  within: {
    'car.verified': [carVerified],
    'car.rejected': [carRejected],
    'car.registration_verified': [registrationVerified],
    'car.registration_rejected': [registrationRejected],
  },
  after: {
    // A booking holds or frees dates, and "rented now" follows it; ratings order and label the
    // list; any change to a car: public browse pages change, on every instance.
    'booking.requested': [forgetBrowsePages],
    'booking.confirmed': [forgetBrowsePages],
    'booking.rejected': [forgetBrowsePages],
    'booking.cancelled': [forgetBrowsePages],
    'booking.paid': [forgetBrowsePages],
    'booking.completed': [forgetBrowsePages],
    'car.changed': [forgetBrowsePages],
    'car.removed': [forgetBrowsePages],
    'car.verified': [forgetBrowsePages],
    'car.rejected': [forgetBrowsePages],
    'car.force_returned': [forgetBrowsePages],
    'review.created': [forgetBrowsePages],
    'review.changed': [forgetBrowsePages],
    'settings.changed': [forgetBrowsePagesOfSettings],
  },
};
