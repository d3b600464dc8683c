/**
 * Invented agencies for demos, development and tests, so a fresh database has something to
 * pick from without importing the FCC registry. Every name and place is made up, and the ids
 * use a DEMO- prefix that no real registry id has, so an FCC import never overwrites them.
 */
export const demoAgencies: ReadonlyArray<{
  fccPsapId: string;
  name: string;
  state: string;
  county: string;
  city: string;
}> = [
  // Virginia: the first two are the agencies the demo walkthrough uses.
  {
    fccPsapId: 'DEMO-0001',
    name: 'Demo County 911 Communications',
    state: 'VA',
    county: 'Demo County',
    city: 'Demoville',
  },
  {
    fccPsapId: 'DEMO-0002',
    name: 'Neighbouring County Emergency Communications',
    state: 'VA',
    county: 'Neighbouring County',
    city: 'Nextdoor',
  },
  {
    fccPsapId: 'DEMO-0003',
    name: 'Sandbox City Public Safety Communications',
    state: 'VA',
    county: 'Sandbox City',
    city: 'Sandbox City',
  },
  {
    fccPsapId: 'DEMO-0004',
    name: 'Example Ridge Regional 911 Authority',
    state: 'VA',
    county: 'Example Ridge County',
    city: 'Mockton',
  },
  {
    fccPsapId: 'DEMO-0005',
    name: 'Example Bay Maritime Rescue Coordination Center',
    state: 'VA',
    county: 'Lorem County',
    city: 'Port Example',
  },
  // Maryland
  {
    fccPsapId: 'DEMO-0006',
    name: 'Lorem County Emergency Communications Center',
    state: 'MD',
    county: 'Lorem County',
    city: 'Ipsumburg',
  },
  {
    fccPsapId: 'DEMO-0007',
    name: 'Ipsum City 911 Dispatch',
    state: 'MD',
    county: 'Dolor County',
    city: 'Ipsum City',
  },
  {
    fccPsapId: 'DEMO-0008',
    name: 'Placeholder Shore Public Safety Answering Point',
    state: 'MD',
    county: 'Placeholder County',
    city: 'Shoreplace',
  },
  {
    fccPsapId: 'DEMO-0009',
    name: 'Chesapeake Sandbox Coastal Rescue Desk',
    state: 'MD',
    county: 'Placeholder County',
    city: 'Harbor Sample',
  },
  // North Carolina
  {
    fccPsapId: 'DEMO-0010',
    name: 'Fictional Pines County 911',
    state: 'NC',
    county: 'Fictional Pines County',
    city: 'Pinewhere',
  },
  {
    fccPsapId: 'DEMO-0011',
    name: 'Mockingvale Emergency Communications',
    state: 'NC',
    county: 'Mockingvale County',
    city: 'Mockingvale',
  },
  {
    fccPsapId: 'DEMO-0012',
    name: 'Outer Sample Banks Marine Emergency Coordination',
    state: 'NC',
    county: 'Sample Banks County',
    city: 'Sample Inlet',
  },
  {
    fccPsapId: 'DEMO-0013',
    name: 'Testington Metro 911 Center',
    state: 'NC',
    county: 'Testington County',
    city: 'Testington',
  },
  // Texas
  {
    fccPsapId: 'DEMO-0014',
    name: 'Imaginary Plains Regional Communications',
    state: 'TX',
    county: 'Imaginary County',
    city: 'Plainsville Demo',
  },
  {
    fccPsapId: 'DEMO-0015',
    name: 'Pretend Springs Police and Fire Dispatch',
    state: 'TX',
    county: 'Pretend County',
    city: 'Pretend Springs',
  },
  {
    fccPsapId: 'DEMO-0016',
    name: 'Gulf Sandbox Coastal Search and Rescue Dispatch',
    state: 'TX',
    county: 'Gulf Sandbox County',
    city: 'Port Sandbox',
  },
  {
    fccPsapId: 'DEMO-0017',
    name: 'Notareal County Sheriff Communications',
    state: 'TX',
    county: 'Notareal County',
    city: 'Notareal',
  },
  {
    fccPsapId: 'DEMO-0018',
    name: 'Sampleton Emergency Services District 911',
    state: 'TX',
    county: 'Imaginary County',
    city: 'Sampleton',
  },
  // California
  {
    fccPsapId: 'DEMO-0019',
    name: 'Golden Example Valley 911 Communications',
    state: 'CA',
    county: 'Example Valley County',
    city: 'Goldexample',
  },
  {
    fccPsapId: 'DEMO-0020',
    name: 'Mock Mesa Public Safety Dispatch',
    state: 'CA',
    county: 'Mock Mesa County',
    city: 'Mock Mesa',
  },
  {
    fccPsapId: 'DEMO-0021',
    name: 'Placeholder Point Maritime Rescue Coordination',
    state: 'CA',
    county: 'Sierra Sample County',
    city: 'Placeholder Point',
  },
  {
    fccPsapId: 'DEMO-0022',
    name: 'Sierra Sample Regional Emergency Communications',
    state: 'CA',
    county: 'Sierra Sample County',
    city: 'Sampleview',
  },
  // Washington
  {
    fccPsapId: 'DEMO-0023',
    name: 'Evergreen Example 911 Center',
    state: 'WA',
    county: 'Evergreen Example County',
    city: 'Exampleton',
  },
  {
    fccPsapId: 'DEMO-0024',
    name: 'Sound Sandbox Maritime Watch Center',
    state: 'WA',
    county: 'Evergreen Example County',
    city: 'Sandbox Harbor',
  },
  {
    fccPsapId: 'DEMO-0025',
    name: 'Cascade Makebelieve Emergency Communications',
    state: 'WA',
    county: 'Makebelieve County',
    city: 'Makebelieve',
  },
  // Florida
  {
    fccPsapId: 'DEMO-0026',
    name: 'Sunshine Sample County 911',
    state: 'FL',
    county: 'Sunshine Sample County',
    city: 'Sampletown Beach',
  },
  {
    fccPsapId: 'DEMO-0027',
    name: 'Keys Placeholder Coastal Rescue Coordination',
    state: 'FL',
    county: 'Placeholder Keys County',
    city: 'Placeholder Key',
  },
  {
    fccPsapId: 'DEMO-0028',
    name: 'Fictional Glades Public Safety Communications',
    state: 'FL',
    county: 'Fictional Glades County',
    city: 'Gladeswhere',
  },
  // Maine
  {
    fccPsapId: 'DEMO-0029',
    name: 'Fogbank Example Regional Communications Center',
    state: 'ME',
    county: 'Fogbank Example County',
    city: 'Foggyexample',
  },
  {
    fccPsapId: 'DEMO-0030',
    name: 'Lobster Sandbox Harbor Marine Emergency Desk',
    state: 'ME',
    county: 'Fogbank Example County',
    city: 'Sandbox Cove',
  },
  // Colorado
  {
    fccPsapId: 'DEMO-0031',
    name: 'High Example Plateau 911 Authority',
    state: 'CO',
    county: 'Plateau Example County',
    city: 'Altitude Demo',
  },
  {
    fccPsapId: 'DEMO-0032',
    name: 'Mock Peaks Emergency Dispatch',
    state: 'CO',
    county: 'Mock Peaks County',
    city: 'Peakplace',
  },
  // Minnesota
  {
    fccPsapId: 'DEMO-0033',
    name: 'Thousand Sample Lakes 911 Communications',
    state: 'MN',
    county: 'Sample Lakes County',
    city: 'Lakeholder',
  },
  {
    fccPsapId: 'DEMO-0034',
    name: 'Pretend Prairie County Emergency Communications',
    state: 'MN',
    county: 'Pretend Prairie County',
    city: 'Prairie Pretend',
  },
  // Alaska
  {
    fccPsapId: 'DEMO-0035',
    name: 'Tundra Example Borough Dispatch',
    state: 'AK',
    county: 'Tundra Example Borough',
    city: 'Frostexample',
  },
  {
    fccPsapId: 'DEMO-0036',
    name: 'Northern Sandbox Strait Maritime Rescue Coordination',
    state: 'AK',
    county: 'Tundra Example Borough',
    city: 'Straitsandbox',
  },
  // Oregon
  {
    fccPsapId: 'DEMO-0037',
    name: 'Rainy Example Coast 911',
    state: 'OR',
    county: 'Rainy Example County',
    city: 'Drizzleton Demo',
  },
  {
    fccPsapId: 'DEMO-0038',
    name: 'Mock Cascade Valley Communications District',
    state: 'OR',
    county: 'Mock Cascade County',
    city: 'Valleymock',
  },
  // Arizona
  {
    fccPsapId: 'DEMO-0039',
    name: 'Saguaro Sample Regional 911',
    state: 'AZ',
    county: 'Saguaro Sample County',
    city: 'Cactusample',
  },
  {
    fccPsapId: 'DEMO-0040',
    name: 'Mirage Placeholder Public Safety Communications',
    state: 'AZ',
    county: 'Mirage County Demo',
    city: 'Mirageville',
  },
];
