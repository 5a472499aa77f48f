//! [`tunables!`](crate::tunables): each tunable declared once — name, type, default, range,
//! step and doc on one line — with the struct, its `Default` and its [`crate::params::Tunable`] impl
//! generated from that line, so the three can no longer drift apart.

use super::{ParamError, ParamSpec};

/// A field type a tunable may have: whole numbers (rounded when set), reals, and switches
/// (`bool`: 0 is off, 1 is on).
pub trait ParamValue: Copy {
    /// The value as the registry's `f64`.
    fn to_f64(self) -> f64;
    /// The field value for a registry value, or `None` if the type cannot hold it (a whole
    /// number out of the type's range, a switch other than 0 or 1, a non-finite value).
    fn from_f64(v: f64) -> Option<Self>;
    /// What [`ParamValue::from_f64`] accepts, for the error message.
    fn allowed() -> String;
}

macro_rules! whole {
    ($($t:ty),*) => {$(
        impl ParamValue for $t {
            fn to_f64(self) -> f64 {
                self as f64
            }
            fn from_f64(v: f64) -> Option<Self> {
                let r = v.round();
                (r >= <$t>::MIN as f64 && r <= <$t>::MAX as f64).then_some(r as $t)
            }
            fn allowed() -> String {
                format!("a whole number from {} to {}", <$t>::MIN, <$t>::MAX)
            }
        }
    )*};
}
whole!(i32, i64, u32, u64, usize);

impl ParamValue for f64 {
    fn to_f64(self) -> f64 {
        self
    }
    fn from_f64(v: f64) -> Option<Self> {
        v.is_finite().then_some(v)
    }
    fn allowed() -> String {
        "a finite number".to_string()
    }
}

impl ParamValue for f32 {
    fn to_f64(self) -> f64 {
        f64::from(self)
    }
    fn from_f64(v: f64) -> Option<Self> {
        let x = v as f32;
        x.is_finite().then_some(x)
    }
    fn allowed() -> String {
        "a finite number".to_string()
    }
}

impl ParamValue for bool {
    fn to_f64(self) -> f64 {
        f64::from(u8::from(self))
    }
    fn from_f64(v: f64) -> Option<Self> {
        match v {
            0.0 => Some(false),
            1.0 => Some(true),
            _ => None,
        }
    }
    fn allowed() -> String {
        "0 (off) or 1 (on)".to_string()
    }
}

/// `value` as a field of type `T`, checked against the optional `valid` range and the type
/// (used by [`tunables!`](crate::tunables) and [`tunable_fields!`](crate::tunable_fields)).
/// A value outside either is refused with [`ParamError::OutOfRange`], never clamped.
pub fn checked<T: ParamValue>(
    name: &str,
    value: f64,
    valid: Option<(f64, f64)>,
) -> Result<T, ParamError> {
    let refuse = |allowed: String| ParamError::OutOfRange {
        name: name.to_string(),
        value,
        allowed,
    };
    if let Some((lo, hi)) = valid {
        if !(lo..=hi).contains(&value) {
            return Err(refuse(format!("{lo} to {hi}")));
        }
    }
    T::from_f64(value).ok_or_else(|| refuse(T::allowed()))
}

/// The one-line doc of a spec from a field's doc comment lines (joined, trimmed).
pub const fn doc_line(doc: &'static str) -> &'static str {
    doc.trim_ascii()
}

/// Declares a struct of tunables, each field once: its doc (one line, also the spec's doc),
/// type, optional registry name (`as "c"`, default: the field name), default, range and step.
/// Generates the struct (`Clone, Debug, PartialEq`; add more derives as attributes), its
/// `Default`, and its [`Tunable`](crate::params::Tunable) impl. Fields marked `#[nested]`
/// (written first) hold other tunable structs, whose parameters are listed before the
/// struct's own and are set and read through them. The range and step are what a tuner
/// explores; a user may set any value the field's type holds (a switch only 0 or 1) and, where
/// the code needs it, within the optional `valid a..=b` (a count of at least 1, a
/// probability). Anything else is refused with [`ParamError::OutOfRange`](crate::params::ParamError).
///
/// ```
/// use kibitz_search::params::Tunable;
///
/// kibitz_search::tunables! {
///     /// Knobs of a toy search.
///     #[derive(Copy)]
///     pub struct Knobs {
///         /// base null-move reduction
///         pub null_r: u32 = 2, 1..=4, step 1;
///         /// UCB exploration constant
///         pub exploration: f64 as "c" = 0.7, 0.1..=2.0, step 0.1, valid 0.0..=10.0;
///         /// late-move reductions on
///         pub lmr: bool = true, 0..=1, step 1;
///     }
/// }
///
/// let mut k = Knobs::default();
/// assert_eq!((k.null_r, k.exploration, k.lmr), (2, 0.7, true));
/// k.apply("null_r=3.4").unwrap();
/// k.apply("c=1.5").unwrap();
/// k.apply("lmr=0").unwrap();
/// assert_eq!((k.null_r, k.exploration, k.lmr), (3, 1.5, false));
/// assert!(k.apply("c=-1").is_err(), "outside its valid range");
/// assert!(k.apply("lmr=7").is_err(), "a switch is 0 or 1");
/// assert_eq!((k.exploration, k.lmr), (1.5, false), "a refused value changes nothing");
/// assert_eq!(Knobs::specs()[1].name, "c");
/// assert_eq!(Knobs::specs()[0].doc, "base null-move reduction");
/// ```
#[macro_export]
macro_rules! tunables {
    (
        $(#[$meta:meta])*
        $vis:vis struct $name:ident {
            $(
                #[nested]
                $(#[doc = $ndoc:literal])*
                $nvis:vis $nfield:ident : $nty:ty,
            )*
            $(
                $(#[doc = $doc:literal])+
                $fvis:vis $field:ident : $ty:ty $(as $pname:literal)? =
                    $default:literal, $min:literal ..= $max:literal, step $step:literal
                    $(, valid $vmin:literal ..= $vmax:literal)?;
            )*
        }
    ) => {
        $(#[$meta])*
        #[derive(Clone, Debug, PartialEq)]
        $vis struct $name {
            $(
                $(#[doc = $ndoc])*
                $nvis $nfield: $nty,
            )*
            $(
                $(#[doc = $doc])+
                $fvis $field: $ty,
            )*
        }

        impl ::core::default::Default for $name {
            fn default() -> Self {
                Self {
                    $($nfield: ::core::default::Default::default(),)*
                    $($field: $default,)*
                }
            }
        }

        impl $name {
            /// This struct's own parameters (not those of nested structs), in declaration order.
            fn own_specs() -> ::std::vec::Vec<$crate::params::ParamSpec> {
                ::std::vec![
                $(
                    $crate::params::ParamSpec {
                        name: $crate::__tunable_name!($field $(, $pname)?),
                        default: <$ty as $crate::params::declare::ParamValue>::to_f64($default),
                        min: $min as f64,
                        max: $max as f64,
                        step: $step as f64,
                        doc: $crate::params::declare::doc_line(concat!($($doc, " "),+)),
                    },
                )*
                ]
            }
        }

        impl $crate::params::Tunable for $name {
            fn specs() -> ::std::vec::Vec<$crate::params::ParamSpec> {
                #[allow(unused_mut)]
                let mut specs = ::std::vec::Vec::new();
                $(specs.extend(<$nty as $crate::params::Tunable>::specs());)*
                specs.extend(Self::own_specs());
                specs
            }

            #[allow(unused_variables, unused_mut, unused_assignments)]
            fn set_param(
                &mut self,
                name: &str,
                value: f64,
            ) -> ::core::result::Result<(), $crate::params::ParamError> {
                let own = Self::own_specs();
                let mut i = 0usize;
                $(
                    if name == own[i].name {
                        let valid: Option<(f64, f64)> =
                            None $(.or(Some(($vmin as f64, $vmax as f64))))?;
                        self.$field = $crate::params::declare::checked::<$ty>(name, value, valid)?;
                        return Ok(());
                    }
                    i += 1;
                )*
                $(
                    match <$nty as $crate::params::Tunable>::set_param(
                        &mut self.$nfield, name, value,
                    ) {
                        Err($crate::params::ParamError::Unknown(_)) => {}
                        done => return done,
                    }
                )*
                Err($crate::params::ParamError::Unknown(name.to_string()))
            }

            #[allow(unused_variables, unused_mut, unused_assignments)]
            fn get_param(&self, name: &str) -> ::core::option::Option<f64> {
                let own = Self::own_specs();
                let mut i = 0usize;
                $(
                    if name == own[i].name {
                        return Some(<$ty as $crate::params::declare::ParamValue>::to_f64(
                            self.$field,
                        ));
                    }
                    i += 1;
                )*
                $(
                    if let Some(v) = <$nty as $crate::params::Tunable>::get_param(
                        &self.$nfield, name,
                    ) {
                        return Some(v);
                    }
                )*
                None
            }
        }
    };
}

/// Implements [`Tunable`](crate::params::Tunable) for an existing config struct whose
/// fields are spread over sub-structs: one line per parameter — its doc (also the spec's doc),
/// registry name, the field it sets (a path like `search.exploration`), range and step. The
/// default is the field's value in the struct's `Default`, so each number lives in one place.
/// `nested a.b;` lines first include every parameter of a field that is itself `Tunable`.
/// As with [`tunables!`](crate::tunables), a value the field cannot hold or outside an
/// optional `valid a..=b` is refused.
///
/// ```
/// use kibitz_search::params::Tunable;
///
/// #[derive(Clone, Default)]
/// struct Search { exploration: f64, rollouts: u32 }
/// #[derive(Clone, Default)]
/// struct Config { search: Search, on: bool }
///
/// kibitz_search::tunable_fields! {
///     Config {
///         /// UCB exploration constant
///         "c" => search.exploration, 0.0..=2.0, step 0.1;
///         /// playout steps
///         "rollout" => search.rollouts, 0..=1000, step 20;
///         /// a switch
///         "on" => on, 0..=1, step 1;
///     }
/// }
///
/// let mut c = Config::default();
/// c.apply("c=1.5").unwrap();
/// c.apply("rollout=40.2").unwrap();
/// assert_eq!((c.search.exploration, c.search.rollouts), (1.5, 40));
/// c.apply("c=3").unwrap();
/// assert_eq!(c.search.exploration, 3.0, "outside the tuning range is allowed");
/// assert_eq!(Config::specs()[2].doc, "a switch");
/// ```
#[macro_export]
macro_rules! tunable_fields {
    (
        $ty:ty {
            $( nested $($nf:ident).+ ; )*
            $(
                $(#[doc = $doc:literal])+
                $pname:literal => $($field:ident).+ , $min:literal ..= $max:literal, step $step:literal
                    $(, valid $vmin:literal ..= $vmax:literal)?;
            )*
        }
    ) => {
        impl $crate::params::Tunable for $ty {
            fn specs() -> ::std::vec::Vec<$crate::params::ParamSpec> {
                #[allow(unused_variables)]
                let d = <$ty as ::core::default::Default>::default();
                #[allow(unused_mut)]
                let mut specs = ::std::vec::Vec::new();
                $(specs.extend($crate::params::declare::specs_of(&d.$($nf).+));)*
                specs.extend([
                    $(
                        $crate::params::ParamSpec {
                            name: $pname,
                            default: $crate::params::ParamValue::to_f64(d.$($field).+),
                            min: $min as f64,
                            max: $max as f64,
                            step: $step as f64,
                            doc: $crate::params::declare::doc_line(concat!($($doc, " "),+)),
                        },
                    )*
                ]);
                specs
            }

            #[allow(unused_variables)]
            fn set_param(
                &mut self,
                name: &str,
                value: f64,
            ) -> ::core::result::Result<(), $crate::params::ParamError> {
                $(
                    if name == $pname {
                        let valid: Option<(f64, f64)> =
                            None $(.or(Some(($vmin as f64, $vmax as f64))))?;
                        $crate::params::declare::set_value(&mut self.$($field).+, name, value, valid)?;
                        return Ok(());
                    }
                )*
                $(
                    match $crate::params::Tunable::set_param(&mut self.$($nf).+, name, value) {
                        Err($crate::params::ParamError::Unknown(_)) => {}
                        done => return done,
                    }
                )*
                Err($crate::params::ParamError::Unknown(name.to_string()))
            }

            #[allow(unused_variables)]
            fn get_param(&self, name: &str) -> ::core::option::Option<f64> {
                $(
                    if name == $pname {
                        return Some($crate::params::ParamValue::to_f64(self.$($field).+));
                    }
                )*
                $(
                    if let Some(v) = $crate::params::Tunable::get_param(&self.$($nf).+, name) {
                        return Some(v);
                    }
                )*
                None
            }
        }
    };
}

/// Sets a field from a registry value if [`checked`] accepts it (whole numbers round); a
/// refused value leaves the field as it was. Used by [`tunable_fields!`](crate::tunable_fields),
/// which names the field by path and so cannot name its type.
pub fn set_value<T: ParamValue>(
    slot: &mut T,
    name: &str,
    v: f64,
    valid: Option<(f64, f64)>,
) -> Result<(), ParamError> {
    *slot = checked(name, v, valid)?;
    Ok(())
}

/// The specs of a nested tunable field (the type taken from the value), with the defaults the
/// enclosing struct gives it: an engine that overrides a shared knob lists its own default.
pub fn specs_of<T: super::Tunable>(value: &T) -> Vec<ParamSpec> {
    T::specs()
        .into_iter()
        .map(|mut s| {
            if let Some(v) = value.get_param(s.name) {
                s.default = v;
            }
            s
        })
        .collect()
}

/// The registry name of a [`tunables!`](crate::tunables) field: its `as "name"` or the field's own.
#[doc(hidden)]
#[macro_export]
macro_rules! __tunable_name {
    ($field:ident) => {
        stringify!($field)
    };
    ($field:ident, $pname:literal) => {
        $pname
    };
}

#[cfg(test)]
mod tests {
    use crate::params::{ParamError, Tunable};

    crate::tunables! {
        /// Inner knobs.
        #[derive(Copy)]
        pub struct Inner {
            /// a weight
            pub weight: i32 = -5, -10..=10, step 2;
        }
    }

    crate::tunables! {
        /// Outer knobs with a nested struct.
        pub struct Outer {
            #[nested]
            /// The inner part.
            pub inner: Inner,
            /// a real
            pub real: f64 as "r" = 0.5, 0.0..=1.0, step 0.1, valid 0.0..=1.0;
            /// a switch
            pub on: bool = false, 0..=1, step 1;
        }
    }

    #[test]
    fn nested_specs_come_first_and_every_name_round_trips() {
        let specs = Outer::specs();
        let names: Vec<_> = specs.iter().map(|s| s.name).collect();
        assert_eq!(names, ["weight", "r", "on"]);
        let d = Outer::default();
        for s in &specs {
            assert_eq!(d.get_param(s.name), Some(s.default), "{}", s.name);
            let mut o = Outer::default();
            o.set_param(s.name, s.max).unwrap();
            assert_eq!(o.get_param(s.name), Some(s.max), "{}", s.name);
        }
        assert_eq!(d.inner.weight, -5);
        assert!(specs[0].is_integer() && !specs[1].is_integer());
    }

    #[test]
    fn values_outside_a_valid_range_or_the_type_are_refused_and_change_nothing() {
        let mut o = Outer::default();
        o.set_param("weight", 11.0).unwrap();
        assert_eq!(o.inner.weight, 11, "a tuning range is no limit");
        o.apply("r=1").unwrap();
        let refused = o.apply("r=1.5");
        assert!(
            matches!(&refused, Err(ParamError::OutOfRange { name, .. }) if name == "r"),
            "{refused:?}"
        );
        assert_eq!(o.real, 1.0, "a refused value leaves the field");
        let msg = refused.unwrap_err().to_string();
        assert!(msg.contains("0 to 1"), "{msg}");
        for bad in ["on=7", "on=0.5", "on=-1"] {
            assert!(o.apply(bad).is_err(), "{bad}");
        }
        assert!(!o.on);
        o.apply("on=1").unwrap();
        assert!(o.on);
        assert!(o.apply("weight=3e10").is_err(), "beyond i32");
        assert!(matches!(o.apply("nope=1"), Err(ParamError::Unknown(_))));
        o.apply("weight=3.6").unwrap();
        assert_eq!(o.inner.weight, 4, "whole numbers round");
    }

    #[derive(Clone, Default)]
    struct Fields {
        count: u32,
        share: f64,
    }

    crate::tunable_fields! {
        Fields {
            /// a count
            "count" => count, 0..=8, step 1;
            /// a share
            "share" => share, 0.0..=1.0, step 0.1, valid 0.0..=1.0;
        }
    }

    #[test]
    fn tunable_fields_refuse_as_tunables_do() {
        let mut f = Fields::default();
        f.apply("count=12").unwrap();
        assert_eq!(f.count, 12, "a tuning range is no limit");
        assert!(f.apply("count=-1").is_err(), "a count is not negative");
        assert!(f.apply("share=1.01").is_err());
        assert_eq!((f.count, f.share), (12, 0.0));
    }
}
